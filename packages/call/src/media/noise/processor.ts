/**
 * The noise-suppression worklet (docs/architecture.md "Noise suppression"), loaded by pipeline.ts with
 * audioWorklet.addModule and bundled on its own (never in an app's first-load JS). RNNoise
 * (@jitsi/rnnoise-wasm) runs here on the audio thread: the page compiles its WebAssembly and hands the
 * module in (`processorOptions.module`: a worklet has no fetch), this file instantiates it. Until RNNoise
 * is ready the microphone passes through as it is; a failure is posted to the page, which sends the raw
 * microphone instead.
 */
import createRNNWasmModule from '@jitsi/rnnoise-wasm/dist/rnnoise.js';
import { Framer, PROCESSOR_NAME, RNNOISE_FRAME } from './frames.ts';

// The AudioWorkletGlobalScope (not in TypeScript's DOM library)
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new (options: { processorOptions?: unknown }) => AudioWorkletProcessor): void;

interface RnnoiseModule {
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, output: number, input: number): number;
}

class RnnoiseProcessor extends AudioWorkletProcessor {
  #framer: Framer | null = null;
  #closed = false;

  constructor(options: { processorOptions?: unknown }) {
    super();
    const { module } = (options.processorOptions ?? {}) as { module?: WebAssembly.Module };
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data === 'close') this.#closed = true;
    };
    if (!module) {
      this.port.postMessage({ error: 'no WebAssembly module' });
      return;
    }
    (
      createRNNWasmModule({
        instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          done(new WebAssembly.Instance(module, imports), module);
          return {};
        },
      }) as Promise<RnnoiseModule>
    ).then(
      (rnnoise) => {
        const state = rnnoise._rnnoise_create(0);
        const bytes = RNNOISE_FRAME * 4;
        const frame = rnnoise._malloc(bytes);
        this.#framer = new Framer((samples) => {
          // the heap's view is read each time: it is replaced when the memory grows
          rnnoise.HEAPF32.set(samples, frame / 4);
          rnnoise._rnnoise_process_frame(state, frame, frame);
          samples.set(rnnoise.HEAPF32.subarray(frame / 4, frame / 4 + RNNOISE_FRAME));
        });
        this.port.postMessage({ ready: true });
      },
      (error: unknown) => this.port.postMessage({ error: String(error) }),
    );
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    const output = outputs[0]?.[0];
    if (!output) return !this.#closed;
    if (this.#framer) this.#framer.process(input, output);
    else if (input) output.set(input);
    for (const channel of outputs[0]!.slice(1)) channel.set(output);
    return !this.#closed;
  }
}

registerProcessor(PROCESSOR_NAME, RnnoiseProcessor);
