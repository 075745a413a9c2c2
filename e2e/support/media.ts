/**
 * Proof of media from inside a page: sums getStats() over every RTCPeerConnection the page made
 * (recorded by the loopback init script) and checks that counters increase over an interval.
 */
import { expect, type Frame, type Page } from '@playwright/test';
import { framesBackAfter, type FramesReading } from './framesBack.ts';

export interface MediaCounters {
  videoFramesDecoded: number;
  audioPacketsReceived: number;
  videoFramesEncoded: number;
  audioPacketsSent: number;
  connections: number;
  /**
   * When the browser took the inbound video stats (ms since the epoch), not when the page or the test
   * got round to them: a busy page answers seconds later. Date.now() when nothing is received.
   */
  videoStatsAt: number;
  /** what the received video did besides decoding, for a failure's message: packets, frames, keyframes, PLIs, size */
  videoDetail: string;
  /** what the sent video did, for a failure's message: frames, packets, size, what limited it, the send estimate */
  sendDetail: string;
}

/** A page's (or an iframe's: the loopback init script records its peer connections too) media counters. */
export async function mediaCounters(page: Page | Frame): Promise<MediaCounters> {
  return page.evaluate(async () => {
    const pcs = (
      (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []
    ).filter((pc) => pc.connectionState !== 'closed');
    const totals = {
      videoFramesDecoded: 0,
      audioPacketsReceived: 0,
      videoFramesEncoded: 0,
      audioPacketsSent: 0,
      connections: pcs.length,
      videoStatsAt: 0,
      videoDetail: '',
      sendDetail: '',
    };
    const details: string[] = [];
    const sent: string[] = [];
    const pick = (s: Record<string, unknown>, keys: string[]) =>
      keys.map((k) => `${k}=${typeof s[k] === 'number' || typeof s[k] === 'string' ? String(s[k]) : '-'}`).join(' ');
    for (const pc of pcs) {
      const report = await pc.getStats();
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') {
          totals.videoFramesDecoded += Number(s.framesDecoded ?? 0);
          // RTCStats timestamps count from the page's time origin (older Chromium: from the epoch)
          const taken = Number(s.timestamp);
          totals.videoStatsAt = Math.max(totals.videoStatsAt, taken < 1e12 ? performance.timeOrigin + taken : taken);
          details.push(
            pick(s, ['packetsReceived', 'packetsLost', 'framesReceived', 'framesDropped', 'keyFramesDecoded', 'pliCount', 'nackCount', 'frameWidth', 'frameHeight', 'freezeCount']),
          );
        }
        if (s.type === 'outbound-rtp' && s.kind === 'video')
          sent.push(
            pick(s, ['framesEncoded', 'framesSent', 'packetsSent', 'keyFramesEncoded', 'pliCount', 'frameWidth', 'frameHeight', 'targetBitrate', 'qualityLimitationReason', 'encoderImplementation']) +
              ` limitedFor=${JSON.stringify(s.qualityLimitationDurations ?? {})}`,
          );
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded')
          sent.push(pick(s, ['availableOutgoingBitrate', 'currentRoundTripTime']));
        if (s.type === 'inbound-rtp' && s.kind === 'audio')
          totals.audioPacketsReceived += Number(s.packetsReceived ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'video')
          totals.videoFramesEncoded += Number(s.framesEncoded ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'audio')
          totals.audioPacketsSent += Number(s.packetsSent ?? 0);
      });
    }
    totals.videoStatsAt ||= Date.now();
    totals.videoDetail = details.join('; ');
    totals.sendDetail = sent.join('; ');
    return totals;
  });
}

/**
 * Asserts that received video frames are decoded and audio packets arrive, increasing over `ms`. A failure's
 * message tells what the `sender` page (the other side, when given) sent meanwhile.
 */
export async function expectMediaFlowing(
  page: Page,
  who: string,
  ms = 2000,
  sender?: Page,
): Promise<{ before: MediaCounters; after: MediaCounters }> {
  // first wait until something has been decoded at all (ICE and DTLS take a moment)
  await expect
    .poll(async () => (await mediaCounters(page)).videoFramesDecoded, {
      message: `${who}: first decoded video frame`,
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  const before = await mediaCounters(page);
  const sentBefore = sender ? (await mediaCounters(sender)).sendDetail : '';
  await page.waitForTimeout(ms);
  const after = await mediaCounters(page);
  const sentAfter = sender && after.videoFramesDecoded <= before.videoFramesDecoded ? (await mediaCounters(sender)).sendDetail : '';
  expect(
    after.videoFramesDecoded,
    `${who}: video frames decoded over ${ms} ms (before, ${before.connections} connections: ${before.videoDetail}; after, ${after.connections}: ${after.videoDetail})` +
      (sender ? ` (the sender, before: ${sentBefore}; after: ${sentAfter})` : ''),
  ).toBeGreaterThan(
    before.videoFramesDecoded,
  );
  expect(after.audioPacketsReceived, `${who}: audio packets received over ${ms} ms`).toBeGreaterThan(
    before.audioPacketsReceived,
  );
  return { before, after };
}

/** The longest stretch between readings of one page in which the counter read by `count` did not grow. */
function longestStall<R extends { at: number }>(readings: R[], count: (r: R) => number): number {
  let stall = 0;
  let since = readings[0]?.at ?? 0;
  for (let i = 1; i < readings.length; i++) {
    if (count(readings[i]!) > count(readings[i - 1]!)) since = readings[i]!.at;
    stall = Math.max(stall, readings[i]!.at - since);
  }
  return stall;
}

/**
 * Samples both sides' decoded video frames and received audio packets about every 250 ms while `during`
 * runs (a server restarted): the longest stretch without a new decoded frame (`longestStall`) and without a
 * new audio packet (`longestAudioStall`) on each side, and how many readings the sparser side took.
 * Each page is read in its own loop, each reading timed by when its browser took the stats
 * (videoStatsAt): a page slow to answer (a loaded machine) must not stretch the other page's stall, nor its own.
 */
export async function decodedFramesDuring(
  guest: Page,
  agent: Page,
  during: () => Promise<void>,
): Promise<{
  samples: number;
  longestStall: { guest: number; agent: number };
  longestAudioStall: { guest: number; agent: number };
}> {
  let running = true;
  const sample = async (page: Page) => {
    const readings: { at: number; frames: number; packets: number }[] = [];
    while (running) {
      const counters = await mediaCounters(page);
      readings.push({ at: counters.videoStatsAt, frames: counters.videoFramesDecoded, packets: counters.audioPacketsReceived });
      await new Promise((r) => setTimeout(r, 250));
    }
    return readings;
  };
  const sampling = Promise.all([sample(guest), sample(agent)]);
  try {
    await during();
  } catch (error) {
    running = false;
    await sampling.catch(() => undefined);
    throw error;
  }
  running = false;
  const [g, a] = await sampling;
  return {
    samples: Math.min(g.length, a.length),
    longestStall: { guest: longestStall(g, (r) => r.frames), agent: longestStall(a, (r) => r.frames) },
    longestAudioStall: { guest: longestStall(g, (r) => r.packets), agent: longestStall(a, (r) => r.packets) },
  };
}

/**
 * When a page decodes video frames again after its media stopped (a media server restarted): the time
 * (ms since the epoch, as the browser took the stats) of the first reading, about every 250 ms, whose
 * decoded-frame count grew over the one before it. Peer connections closed meanwhile leave the sum, so
 * only a count that grows says new frames arrived. Throws after `timeoutMs`.
 */
export async function framesBackAt(page: Page, who: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let previous = await mediaCounters(page);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await mediaCounters(page);
    if (now.videoFramesDecoded > previous.videoFramesDecoded) return now.videoStatsAt;
    previous = now;
  }
  throw new Error(`${who}: no decoded video frame within ${timeoutMs} ms`);
}

/**
 * Watches a page's decoded video frames from now on, about every 100 ms, for a fault's recovery: start it
 * before the fault (a call that moves quickly is back before the command that killed its server returns),
 * then `backAfter(faultAt)` resolves with when frames came back after stopping (framesBackAfter). The
 * watch ends when `backAfter` settles.
 */
export function watchFrames(page: Page, who: string): { backAfter(faultAt: number, timeoutMs?: number): Promise<number> } {
  const readings: FramesReading[] = [];
  let watching = true;
  void (async () => {
    // (also ends with the page: a journey that failed before asking would leave it polling)
    while (watching && !page.isClosed()) {
      const counters = await mediaCounters(page).catch(() => null);
      if (counters) readings.push({ at: counters.videoStatsAt, frames: counters.videoFramesDecoded });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async backAfter(faultAt, timeoutMs = 30_000) {
      try {
        for (;;) {
          const back = framesBackAfter(readings, faultAt);
          if (back !== null) return back;
          if (Date.now() > faultAt + timeoutMs) {
            // had they stopped? one more reading that grows would then count as back
            const stoppedOnce = framesBackAfter([...readings, { at: Infinity, frames: Infinity }], faultAt) !== null;
            throw new Error(`${who}: ${stoppedOnce ? 'no decoded video frame again' : 'decoded video frames never stopped'} within ${timeoutMs} ms of the fault`);
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        watching = false;
      }
    },
  };
}

/** What each page receives and sends, for a failure's message (a stream that stopped: which side stopped it). */
export async function mediaReport(pages: Array<[Page, string]>): Promise<string> {
  const lines: string[] = [];
  for (const [page, who] of pages) {
    const c = await mediaCounters(page).catch((error: unknown) => ({ videoDetail: String(error), sendDetail: '' }));
    lines.push(`${who} receives: ${c.videoDetail || 'no video'}; sends: ${c.sendDetail || 'no video'}`);
  }
  return lines.join('\n');
}

/** Runs `check`; when it throws, adds what the pages receive and send to its message. */
export async function withMediaReport<T>(pages: Array<[Page, string]>, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof Error) error.message += `\n${await mediaReport(pages)}`;
    throw error;
  }
}
