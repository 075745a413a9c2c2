/**
 * The microphone track a transport sends (docs/architecture.md "Noise suppression"): the microphone
 * itself, or its noise-suppressed copy while the switch is on (noise/suppression.ts). Both transports
 * (janus/publishedTracks.ts, p2pTransport.ts) keep one: it owns the copy and stops it when the
 * microphone changes, the switch goes off or the call ends (`stop`), so no audio context outlives it.
 */
import { suppressNoise, type SuppressNoise, type SuppressedMicrophone } from './noise/suppression.ts';

export class SentMicrophone {
  #on = false;
  #microphone: MediaStreamTrack | null = null;
  #suppressed: SuppressedMicrophone | null = null;
  /** each `sendable` call's number: an older one that finishes late gives its copy up */
  #turn = 0;

  readonly #suppress: SuppressNoise;
  /** a running copy failed: its owner sends the microphone itself again */
  readonly #fellBack: (microphone: MediaStreamTrack) => void;

  constructor(suppress: SuppressNoise = suppressNoise, fellBack: (microphone: MediaStreamTrack) => void = () => undefined) {
    this.#suppress = suppress;
    this.#fellBack = fellBack;
  }

  /** whether noise suppression is asked for (it may still have fallen back to the raw microphone) */
  get on(): boolean {
    return this.#on;
  }

  /** the track being sent now: the suppressed copy, or the microphone */
  get current(): MediaStreamTrack | null {
    return this.#suppressed?.track ?? this.#microphone;
  }

  /**
   * The track to send for `microphone` with suppression `on` (by default as it was): its suppressed copy,
   * or the microphone itself when off or when suppression cannot run. The previous copy is stopped.
   */
  async sendable(microphone: MediaStreamTrack, on: boolean = this.#on): Promise<MediaStreamTrack> {
    const turn = ++this.#turn;
    this.#on = on;
    this.#microphone = microphone;
    const previous = this.#suppressed;
    const next = on ? await this.#suppress(microphone) : null;
    if (turn !== this.#turn) {
      // a later microphone or switch took over meanwhile
      next?.stop();
      return this.current ?? microphone;
    }
    this.#suppressed = next;
    if (previous !== next) previous?.stop();
    void next?.failed?.then((reason) => {
      if (this.#suppressed !== next) return;
      console.warn(`noise suppression failed (${reason}): the raw microphone is sent`);
      this.#suppressed = null;
      next.stop();
      this.#fellBack(microphone);
    });
    return next?.track ?? microphone;
  }

  /** Stops the suppressed copy (the call's end); the microphone itself is its owner's to stop. */
  stop(): void {
    this.#turn++;
    this.#suppressed?.stop();
    this.#suppressed = null;
    this.#microphone = null;
  }
}
