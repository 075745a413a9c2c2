/** Small helpers the benches of several nodes share: a rounded percentile, the load average, a pause. */
import os from 'node:os';

/** The p-th percentile (0-100) of `xs`, nearest rank, in whole units; null when there is none. */
export function pct(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);
}

/** The machine's 1-, 5- and 15-minute load averages, to two decimals (printed beside every figure). */
export const load = (): number[] => os.loadavg().map((l) => Math.round(l * 100) / 100);

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
