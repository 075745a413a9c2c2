/**
 * ICE restart of one peer connection (docs/protocol.md "ICE restart"), the same for the
 * publisher, the screen and the subscriber: what differs (who makes the new offer) is `restart`.
 *
 * - `disconnected` is often a blip (a Wi-Fi hand-over): after DISCONNECTED_GRACE_MS still not connected,
 *   a restart begins; `failed` begins one at once.
 * - While restarting, an attempt that has not brought the connection back within RESTART_RETRY_MS (the
 *   network still gone, or the signalling stuck) is followed by another, until RESTART_GIVE_UP_MS after
 *   the first: then the connection has failed for good (`onFailed`, the call's report marked failed).
 * - `connected` / `completed` ends it (`onRecovered`).
 */
import type { ClockPort } from '../ports/clock.ts';

/** How long `disconnected` may last before a restart (Chromium says so after ~2.5 s without packets). */
export const DISCONNECTED_GRACE_MS = 2000;
/** How long one restart may take to connect before the next is tried. */
export const RESTART_RETRY_MS = 10_000;
/** After this long without a connection, the restarts stop: the media is lost. */
export const RESTART_GIVE_UP_MS = 180_000;
/** A `failed` while restarting brings the next attempt forward to this delay. */
const FAILED_RETRY_MS = 1000;

export interface IceRestartOptions {
  /** renegotiates with new ICE credentials; rejects when the signalling did not answer */
  restart: () => Promise<void>;
  clock: Pick<ClockPort, 'now' | 'setTimeout'>;
  /** the connection is being restarted ("reconnecting" is shown) */
  onRestarting: () => void;
  /** connected again after restarting */
  onRecovered: () => void;
  /** no connection after RESTART_GIVE_UP_MS of restarts */
  onFailed: () => void;
  graceMs?: number;
  retryMs?: number;
  giveUpMs?: number;
}

type Phase = 'ok' | 'grace' | 'restarting' | 'failed' | 'stopped';

export class IceRestarter {
  readonly #o: IceRestartOptions;
  #phase: Phase = 'ok';
  #since = 0;
  #cancel: (() => void) | null = null;
  #inFlight = false;
  /** restarts made so far (diagnostics and tests) */
  attempts = 0;

  constructor(options: IceRestartOptions) {
    this.#o = options;
  }

  get restarting(): boolean {
    return this.#phase === 'restarting';
  }

  /** The peer connection's iceConnectionState changed. */
  onState(state: RTCIceConnectionState): void {
    if (this.#phase === 'failed' || this.#phase === 'stopped') return;
    if (state === 'connected' || state === 'completed') {
      this.#clear();
      const was = this.#phase;
      this.#phase = 'ok';
      if (was === 'restarting') this.#o.onRecovered();
    } else if (state === 'disconnected') {
      if (this.#phase !== 'ok') return;
      this.#phase = 'grace';
      this.#schedule(() => this.#begin(), this.#o.graceMs ?? DISCONNECTED_GRACE_MS);
    } else if (state === 'failed') {
      if (this.#phase === 'restarting') {
        if (!this.#inFlight) this.#schedule(() => void this.#attempt(), FAILED_RETRY_MS);
      } else {
        this.#begin();
      }
    } else if (state === 'closed') {
      this.stop();
    }
  }

  /** The peer connection is gone (hang-up, hold): no more restarts. */
  stop(): void {
    this.#clear();
    this.#phase = 'stopped';
  }

  #begin(): void {
    this.#clear();
    this.#phase = 'restarting';
    this.#since = this.#o.clock.now();
    this.#o.onRestarting();
    void this.#attempt();
  }

  async #attempt(): Promise<void> {
    this.#clear();
    if (this.#phase !== 'restarting' || this.#inFlight) return;
    if (this.#o.clock.now() - this.#since >= (this.#o.giveUpMs ?? RESTART_GIVE_UP_MS)) {
      this.#phase = 'failed';
      this.#o.onFailed();
      return;
    }
    this.attempts++;
    this.#inFlight = true;
    try {
      await this.#o.restart();
    } catch (error) {
      console.warn(`media: ICE restart ${this.attempts} not sent: ${String(error)}`);
    } finally {
      this.#inFlight = false;
    }
    // not connected within the retry time: another attempt (the timer is cleared once connected)
    if (this.#phase === 'restarting') this.#schedule(() => void this.#attempt(), this.#o.retryMs ?? RESTART_RETRY_MS);
  }

  #schedule(run: () => void, ms: number): void {
    this.#clear();
    this.#cancel = this.#o.clock.setTimeout(run, ms);
  }

  #clear(): void {
    this.#cancel?.();
    this.#cancel = null;
  }
}
