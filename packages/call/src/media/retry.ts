/**
 * Retries a gateway call (docs/protocol.md "Constants": attach, create room, offer, subscribe, answer, screen
 * share are tried up to 20 times). The delay grows a little each time, bounded, so a restarting server gets
 * room without the guest waiting long after it is back.
 */
export interface RetryOptions {
  attempts: number;
  delayMs?: number;
  /** the longest wait between two attempts */
  maxDelayMs?: number;
  stopIf?: () => boolean;
  /** false: this error will not go away by asking again (e.g. a wrong pin): give up at once */
  transient?: (error: unknown) => boolean;
  /** told before each new attempt (the engines show that the media server is being waited for) */
  onRetry?: (error: unknown, attempt: number) => void;
  /** the wait between two attempts (default: a timer); a caller's own can be cut short */
  wait?: (ms: number) => Promise<void>;
}

export async function retry<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const delay = options.delayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 2000;
  let lastError: unknown;
  for (let i = 0; i < options.attempts; i++) {
    if (options.stopIf?.()) break;
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      if (options.transient && !options.transient(error)) break;
      if (i < options.attempts - 1) {
        options.onRetry?.(error, i + 1);
        const ms = Math.min(delay * (i + 1), maxDelay);
        await (options.wait ? options.wait(ms) : new Promise((r) => setTimeout(r, ms)));
      }
    }
  }
  throw lastError instanceof Error
    ? lastError
    : new Error(typeof lastError === 'string' ? lastError : 'gave up');
}

/**
 * Gateway messages a retry cures (docs/protocol.md "Error messages"): the server down or unreachable, a lost
 * connection, a request that timed out. An answer with an error (a wrong pin, an unknown room) is final.
 */
export function isTransientGatewayError(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /server down|connected=false|Lost connection|timed out|network error|unavailable|Library not initialized/i.test(text);
}
