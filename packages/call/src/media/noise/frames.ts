/**
 * RNNoise's framing (docs/architecture.md "Noise suppression"): the audio graph hands a worklet 128
 * samples at a time, RNNoise takes 480 (10 ms at 48 kHz). Input gathers into a 480-sample frame, each
 * full frame is denoised into an output ring, and every 128-sample block is read back from that ring.
 * The ring starts with 512 samples of silence: 480·⌊128n/480⌋ produced samples trail the 128n consumed
 * by at most 448, so a block is always there to read (a fixed 10.7 ms of latency, no gaps).
 */

/** the worklet processor's registered name (processor.ts) */
export const PROCESSOR_NAME = 'lobby-rnnoise';
export const RNNOISE_FRAME = 480;
/** the silence the output starts with: four 128-sample blocks, at least the framing's 448-sample lag */
export const FRAMER_LATENCY = 512;
const RING = 2048;

/** Denoises one frame in place (samples in RNNoise's 16-bit scale). */
export type DenoiseFrame = (frame: Float32Array) => void;

export class Framer {
  readonly #frame = new Float32Array(RNNOISE_FRAME);
  #filled = 0;
  readonly #ring = new Float32Array(RING);
  #read = 0;
  #count = FRAMER_LATENCY;

  readonly #denoise: DenoiseFrame;

  constructor(denoise: DenoiseFrame) {
    this.#denoise = denoise;
  }

  /**
   * Takes one block of input (−1…1; none: silence) and writes as many output samples (−1…1) into `output`.
   */
  process(input: Float32Array | undefined, output: Float32Array): void {
    for (let i = 0; i < output.length; i++) {
      // RNNoise was trained on 16-bit samples
      this.#frame[this.#filled++] = (input?.[i] ?? 0) * 32768;
      if (this.#filled === RNNOISE_FRAME) {
        this.#denoise(this.#frame);
        const write = (this.#read + this.#count) % RING;
        for (let j = 0; j < RNNOISE_FRAME; j++) this.#ring[(write + j) % RING] = this.#frame[j]! / 32768;
        this.#count += RNNOISE_FRAME;
        this.#filled = 0;
      }
    }
    for (let i = 0; i < output.length; i++) {
      output[i] = this.#count > 0 ? this.#ring[this.#read]! : 0;
      if (this.#count > 0) {
        this.#read = (this.#read + 1) % RING;
        this.#count--;
      }
    }
  }
}
