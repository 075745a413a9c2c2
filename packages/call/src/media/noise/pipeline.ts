/**
 * The noise-suppressed microphone (docs/architecture.md "Noise suppression"): the microphone's track
 * through an AudioContext at 48 kHz → the RNNoise worklet (processor.ts) → a
 * MediaStreamAudioDestinationNode, whose track is what is sent. Reached only through import() from
 * suppression.ts: neither this file, nor the worklet, nor the WebAssembly is in an app's first-load JS.
 * The WebAssembly is compiled here (the CSP's 'wasm-unsafe-eval', docs/security.md) and handed to the
 * worklet. Each microphone gets its own context, closed by `stop` (the call's end, a device change,
 * the switch turned off).
 */
import processorUrl from './processor.ts?worker&url';
import wasmUrl from '@jitsi/rnnoise-wasm/dist/rnnoise.wasm?url';
import { PROCESSOR_NAME } from './frames.ts';
import type { SuppressedMicrophone } from '../../ports/media.ts';

/** how long the context may take to start (a page without a user's gesture yet keeps it suspended) */
const RESUME_MS = 2000;
/** how long RNNoise may take to start in the worklet */
const READY_MS = 5000;

let compiled: Promise<WebAssembly.Module> | null = null;

/** RNNoise's WebAssembly, fetched and compiled once per page. */
function rnnoiseModule(): Promise<WebAssembly.Module> {
  compiled ??= fetch(wasmUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`rnnoise.wasm: HTTP ${response.status}`);
      return response.arrayBuffer();
    })
    .then((bytes) => WebAssembly.compile(bytes));
  compiled.catch(() => (compiled = null));
  return compiled;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Builds the suppressed copy of `microphone`; throws (its context closed) when any step fails. */
export async function rnnoisePipeline(microphone: MediaStreamTrack): Promise<SuppressedMicrophone> {
  const context = new AudioContext({ sampleRate: 48000, latencyHint: 'interactive' });
  try {
    const [module] = await Promise.all([rnnoiseModule(), context.audioWorklet.addModule(processorUrl)]);
    await within(context.resume(), RESUME_MS, 'starting the audio context');
    const node = new AudioWorkletNode(context, PROCESSOR_NAME, {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: 1,
      channelCountMode: 'explicit',
      outputChannelCount: [1],
      processorOptions: { module },
    });
    let failed: (reason: string) => void = () => undefined;
    const failure = new Promise<string>((resolve) => (failed = resolve));
    const ready = new Promise<void>((resolve, reject) => {
      node.port.onmessage = (event: MessageEvent<{ ready?: boolean; error?: string }>) => {
        if (event.data.ready) resolve();
        else if (event.data.error) reject(new Error(`RNNoise: ${event.data.error}`));
      };
      // before it is ready the start fails; after, the copy does (its owner sends the microphone again)
      node.onprocessorerror = () => {
        reject(new Error('the RNNoise worklet failed'));
        failed('the RNNoise worklet failed');
      };
    });
    const source = context.createMediaStreamSource(new MediaStream([microphone]));
    const destination = context.createMediaStreamDestination();
    source.connect(node).connect(destination);
    await within(ready, READY_MS, 'starting RNNoise');
    const track = destination.stream.getAudioTracks()[0]!;
    let stopped = false;
    return {
      track,
      failed: failure,
      stop() {
        if (stopped) return;
        stopped = true;
        node.port.postMessage('close');
        source.disconnect();
        node.disconnect();
        track.stop();
        void context.close().catch(() => undefined);
      },
    };
  } catch (error) {
    void context.close().catch(() => undefined);
    throw error;
  }
}
