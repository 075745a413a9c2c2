/**
 * What a page hears, from its peer connections' getStats() (recorded by the loopback init script): the
 * received audio's level, interval by interval, from the inbound audio's totalAudioEnergy and
 * totalSamplesDuration (energy / duration is the mean square of the samples, 1 = full scale).
 */
import type { Page } from '@playwright/test';

/** The received audio's level (dBFS, RMS) in each `stepMs` interval over `ms`. */
export async function receivedAudioLevels(page: Page, ms: number, stepMs = 100): Promise<number[]> {
  return page.evaluate(
    async ({ ms, stepMs }) => {
      const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter(
        (pc) => pc.connectionState !== 'closed',
      );
      const read = async () => {
        let energy = 0;
        let duration = 0;
        for (const pc of pcs) {
          (await pc.getStats()).forEach((s: Record<string, unknown>) => {
            if (s.type !== 'inbound-rtp' || s.kind !== 'audio') return;
            energy += Number(s.totalAudioEnergy ?? 0);
            duration += Number(s.totalSamplesDuration ?? 0);
          });
        }
        return { energy, duration };
      };
      const levels: number[] = [];
      let last = await read();
      const end = performance.now() + ms;
      while (performance.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        const now = await read();
        const seconds = now.duration - last.duration;
        if (seconds > 0) levels.push(10 * Math.log10(Math.max((now.energy - last.energy) / seconds, 1e-12)));
        last = now;
      }
      return levels;
    },
    { ms, stepMs },
  );
}

/** The `p`-th percentile (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))]!;
}
