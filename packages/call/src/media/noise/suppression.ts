/**
 * Noise suppression of the sent microphone (docs/architecture.md "Noise suppression"): RNNoise in an
 * AudioWorklet, on by default for agents, a switch for guests. `suppressNoise` loads the pipeline
 * lazily (pipeline.ts, its worklet and its WebAssembly in chunks of their own) and answers null where it
 * cannot run — no AudioWorklet, no WebAssembly, the worklet or its module failing to load — saying why in
 * the console: the call then sends the raw microphone, as with the switch off.
 */
import type { SuppressNoise, SuppressedMicrophone } from '../../ports/media.ts';

export type { SuppressNoise, SuppressedMicrophone };

/** Why this browser cannot suppress noise, or null when it can. */
export function noiseSuppressionMissing(scope: Partial<Record<'AudioWorkletNode' | 'WebAssembly' | 'AudioContext', unknown>> = globalThis): string | null {
  if (typeof scope.AudioContext !== 'function') return 'no AudioContext';
  if (typeof scope.AudioWorkletNode !== 'function') return 'no AudioWorklet';
  if (typeof scope.WebAssembly !== 'object' || scope.WebAssembly === null) return 'no WebAssembly';
  return null;
}

/** The browser's RNNoise pipeline (pipeline.ts), loaded on first use. */
export const suppressNoise: SuppressNoise = async (microphone) => {
  const missing = noiseSuppressionMissing();
  if (missing) {
    console.warn(`noise suppression: ${missing}: the raw microphone is sent`);
    return null;
  }
  try {
    const { rnnoisePipeline } = await import('./pipeline.ts');
    return await rnnoisePipeline(microphone);
  } catch (error) {
    console.warn(`noise suppression failed (${String(error)}): the raw microphone is sent`);
    return null;
  }
};
