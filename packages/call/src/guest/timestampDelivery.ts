/**
 * The report timestamps that record what the guest did (hang up, leave) or how its call ended, delivered
 * until the server acknowledges them (docs/protocol.md "End"). A hang-up pressed while the network is
 * gone must still reach the server when it returns: the request is sent again with a growing delay (at
 * most MAX_RETRY_MS) for as long as the page lives, at once when the engine sees its network back (its
 * XMPP stream reconnected), and a page left meanwhile sends what is still pending as a keepalive request,
 * which outlives the page (pageHide).
 *
 * One delivery per call: flags asked while an earlier delivery of the same call is pending join it.
 * An answer the server gave and would give again (400, 403, 404…) ends the delivery: sending it again
 * cannot change it.
 */
import { ApiError } from '../api/http.ts';
import type { TimestampFlag } from '../api/guestApi.ts';
import type { ClockPort } from '../ports/clock.ts';

export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 8000;
/** how long one request may go unanswered before it counts as failed */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type SendTimestamps = (callId: string, flags: TimestampFlag[], options?: { beacon?: boolean }) => Promise<void>;

/** No answer, a server error, a timeout, too many requests or an expired token (renewed meanwhile): try again. */
export function worthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || [401, 408, 429].includes(error.status);
}

interface Pending {
  flags: Set<TimestampFlag>;
  attempt: number;
  cancel: () => void;
  inFlight: boolean;
}

export class TimestampDelivery {
  readonly #send: SendTimestamps;
  readonly #clock: ClockPort;
  readonly #pending = new Map<string, Pending>();

  constructor(send: SendTimestamps, clock: ClockPort) {
    this.#send = send;
    this.#clock = clock;
  }

  /** The calls whose timestamps the server has not acknowledged yet. */
  get pending(): string[] {
    return [...this.#pending.keys()];
  }

  /**
   * Sends the flags now (the request leaves before this returns) and again until acknowledged. Nothing
   * waits for it: a hang-up never waits for the network.
   */
  deliver(callId: string, flags: TimestampFlag[]): void {
    const existing = this.#pending.get(callId);
    if (existing) {
      // a call's later flags ride with its delivery (sent with the next attempt, or now when none is in flight)
      for (const flag of flags) existing.flags.add(flag);
      if (existing.inFlight) return;
      existing.cancel();
      void this.#attempt(callId, existing);
      return;
    }
    const pending: Pending = { flags: new Set(flags), attempt: 0, cancel: () => undefined, inFlight: false };
    this.#pending.set(callId, pending);
    void this.#attempt(callId, pending);
  }

  /** The network is back (the engine saw its stream reconnect): every pending delivery is tried at once. */
  retryNow(): void {
    for (const [callId, pending] of this.#pending) {
      if (pending.inFlight) continue;
      pending.cancel();
      void this.#attempt(callId, pending);
    }
  }

  /**
   * The page is being left: what is still pending, with `last` (the page's own end), goes as keepalive requests, which the browser sends
   * even after the page is gone (no answer is read). The deliveries are over for this page.
   */
  flush(last?: { callId: string; flags: TimestampFlag[] }): void {
    if (last) {
      const pending = this.#pending.get(last.callId);
      if (pending) for (const flag of last.flags) pending.flags.add(flag);
      else this.#pending.set(last.callId, { flags: new Set(last.flags), attempt: 0, cancel: () => undefined, inFlight: false });
    }
    for (const [callId, pending] of this.#pending) {
      pending.cancel();
      void this.#send(callId, [...pending.flags], { beacon: true }).catch(() => undefined);
    }
    this.#pending.clear();
  }

  async #attempt(callId: string, pending: Pending): Promise<void> {
    const flags = [...pending.flags];
    pending.inFlight = true;
    let error: Error | null = null;
    let stopTimer: () => void = () => undefined;
    try {
      // a request into a cut network is not refused, it hangs (TCP retries for minutes): given up on
      // after ATTEMPT_TIMEOUT_MS and sent anew, so that one sent after the network is back carries it
      const noAnswer = new Promise<never>((_, reject) => {
        stopTimer = this.#clock.setTimeout(() => reject(new ApiError(0, 'no answer', 'Timeout')), ATTEMPT_TIMEOUT_MS);
      });
      await Promise.race([this.#send(callId, flags), noAnswer]);
    } catch (failure) {
      error = failure instanceof Error ? failure : new Error(String(failure));
    } finally {
      stopTimer();
    }
    pending.inFlight = false;
    if (this.#pending.get(callId) !== pending) return; // flushed meanwhile
    if (error === null) {
      // flags added while this attempt was in flight still need a request: sent now
      for (const flag of flags) pending.flags.delete(flag);
      if (pending.flags.size === 0) this.#pending.delete(callId);
      else return this.#attempt(callId, pending);
      return;
    }
    if (!worthRetrying(error)) {
      console.warn(`report ${callId}: ${flags.join(', ')} refused: ${String(error)}`);
      this.#pending.delete(callId);
      return;
    }
    pending.attempt++;
    console.warn(`report ${callId}: ${flags.join(', ')} not delivered (attempt ${pending.attempt}): ${String(error)}`);
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (pending.attempt - 1), MAX_RETRY_MS);
    pending.cancel = this.#clock.setTimeout(() => void this.#attempt(callId, pending), delay);
  }
}
