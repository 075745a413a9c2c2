import { useState } from 'react';

/**
 * The noise-suppression switch's remembered choice (docs/architecture.md "Noise suppression"): on by
 * default for agents, off for guests, kept in the browser's storage under the app's own key.
 */
export interface NoiseSuppressionEngine {
  setNoiseSuppression(on: boolean): Promise<void>;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage refused (a sandboxed frame, privacy settings)
  }
}

/** The remembered choice under `key`, else `byDefault`: the engine is made with it. */
export function rememberedNoiseSuppression(key: string, byDefault: boolean): boolean {
  const saved = storage()?.getItem(key);
  return saved === 'on' ? true : saved === 'off' ? false : byDefault;
}

/** The switch's state: remembered under `key`, and told to the engine at once (during a call too). */
export function useNoiseSuppression(engine: NoiseSuppressionEngine | null, key: string, byDefault: boolean): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => rememberedNoiseSuppression(key, byDefault));
  const set = (next: boolean) => {
    setOn(next);
    try {
      storage()?.setItem(key, next ? 'on' : 'off');
    } catch {
      // not remembered: the choice still holds for this page
    }
    void engine?.setNoiseSuppression(next);
  };
  return [on, set];
}
