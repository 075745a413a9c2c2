/**
 * Retries a gateway call (SPEC.md §8: attach, create room, offer, subscribe, answer and screen share
 * are tried up to 20 times). The delay grows a little each time so a restarting server gets room.
 */
export async function retry<T>(
  attempt: () => Promise<T>,
  options: { attempts: number; delayMs?: number; stopIf?: () => boolean },
): Promise<T> {
  const delay = options.delayMs ?? 250;
  let lastError: unknown;
  for (let i = 0; i < options.attempts; i++) {
    if (options.stopIf?.()) break;
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      if (i < options.attempts - 1) await new Promise((r) => setTimeout(r, Math.min(delay * (i + 1), 2000)));
    }
  }
  throw lastError instanceof Error
    ? lastError
    : new Error(typeof lastError === 'string' ? lastError : 'gave up');
}
