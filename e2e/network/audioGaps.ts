/**
 * The audio's gaps on a bad line (e2e/network/line-steps.spec.ts): each page's record of its audio,
 * every 100 ms on the browsers' one clock, and the longest wait between two arrivals that the line made.
 *
 * A receiver also waits when the sender sends nothing: on a busy shared machine a sender's audio thread
 * stalls now and then (packetsSent still for most of a second, on any line). That part of a wait is the
 * machine's, not the line's: the line's gap is the receiver's wait less the longest stretch of it (a
 * queue's 300 ms earlier included) in which the sender sent nothing. Both are reported. And the
 * receiving page's own stalls (its timer late by seconds) prove nothing: only records that saw the
 * counter stay still make a wait.
 */
import type { Page } from '@playwright/test';

export interface AudioSample {
  /** when the browser took the statistics, ms since the epoch */
  at: number;
  /** audio packets sent, received, and samples received that the decoder did not conceal */
  sent: number;
  received: number;
  decoded: number;
}

/** Starts (or restarts) the page's record. */
export async function recordAudio(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __audio?: { samples: unknown[]; stop: () => void } };
    w.__audio?.stop();
    const samples: unknown[] = [];
    const timer = setInterval(() => {
      const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter((pc) => pc.connectionState !== 'closed');
      void Promise.all(pcs.map((pc) => pc.getStats())).then((reports) => {
        const sample = { at: 0, sent: 0, received: 0, decoded: 0 };
        for (const report of reports)
          report.forEach((s: Record<string, unknown>) => {
            if (s.kind !== 'audio') return;
            // RTCStats timestamps count from the page's time origin (older Chromium: from the epoch)
            const taken = Number(s.timestamp);
            sample.at = Math.max(sample.at, taken < 1e12 ? performance.timeOrigin + taken : taken);
            if (s.type === 'outbound-rtp') sample.sent += Number(s.packetsSent ?? 0);
            if (s.type === 'inbound-rtp') {
              sample.received += Number(s.packetsReceived ?? 0);
              sample.decoded += Number(s.totalSamplesReceived ?? 0) - Number(s.concealedSamples ?? 0);
            }
          });
        if (sample.at > 0) samples.push(sample);
      });
    }, 100);
    w.__audio = { samples, stop: () => clearInterval(timer) };
  });
}

export const audioSamples = (page: Page): Promise<AudioSample[]> =>
  page.evaluate(() => (window as unknown as { __audio?: { samples: AudioSample[] } }).__audio?.samples ?? []);

type Counter = 'sent' | 'received' | 'decoded';

/**
 * The stretches in which a counter provably did not grow, [from, to] ms: from the first record of a
 * value to the last one of it (the last one open until `until`). A page that is itself stalled records
 * nothing: its stall is no wait, since the counter may have grown all along.
 */
export function waits(samples: AudioSample[], counter: Counter, until: number): [number, number][] {
  const out: [number, number][] = [];
  let first: AudioSample | undefined;
  let last: AudioSample | undefined;
  for (const s of samples) {
    if (!first || !last || s[counter] > last[counter]) {
      if (first && last) out.push([first.at, last.at]);
      first = s;
    }
    last = s;
  }
  if (first) out.push([first.at, until]);
  return out;
}

/** the record's step: a wait proven between two records was up to one step longer */
export const STEP_MS = 100;

/** a sender's wait this long is a stall of its own */
export const STALL_MS = 250;

/** How long the queue of a shaped line (tbf latency 300 ms) can hold what the sender sent. */
export const QUEUE_MS = 300;

/** The receiver's longest wait for a counter, and the longest that the line made (the sender's stalls taken out). */
export function longestGaps(receiver: AudioSample[], sender: AudioSample[], counter: Exclude<Counter, 'sent'>): { raw: number; line: number } {
  const until = Math.max(...receiver.map((s) => s.at));
  // a stall is longer than the record's own step (100 ms, late on a busy page)
  const stalls = waits(sender, 'sent', until).filter(([a, b]) => b - a >= STALL_MS);
  let raw = 0;
  let line = 0;
  for (const [from, to] of waits(receiver, counter, until)) {
    let excused = 0;
    for (const [a, b] of stalls) excused = Math.max(excused, Math.min(b, to) - Math.max(a, from - QUEUE_MS));
    const wait = to - from + STEP_MS;
    raw = Math.max(raw, wait);
    line = Math.max(line, wait - Math.min(Math.max(0, excused), wait));
  }
  return { raw: Math.round(raw), line: Math.round(line) };
}
