/**
 * Proof of media from inside a page: sums getStats() over every RTCPeerConnection the page made
 * (recorded by the loopback init script) and checks that counters increase over an interval.
 */
import { expect, type Page } from '@playwright/test';

export interface MediaCounters {
  videoFramesDecoded: number;
  audioPacketsReceived: number;
  videoFramesEncoded: number;
  audioPacketsSent: number;
  connections: number;
}

export async function mediaCounters(page: Page): Promise<MediaCounters> {
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
    };
    for (const pc of pcs) {
      const report = await pc.getStats();
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video')
          totals.videoFramesDecoded += Number(s.framesDecoded ?? 0);
        if (s.type === 'inbound-rtp' && s.kind === 'audio')
          totals.audioPacketsReceived += Number(s.packetsReceived ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'video')
          totals.videoFramesEncoded += Number(s.framesEncoded ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'audio')
          totals.audioPacketsSent += Number(s.packetsSent ?? 0);
      });
    }
    return totals;
  });
}

/** Asserts that received video frames are decoded and audio packets arrive, increasing over `ms`. */
export async function expectMediaFlowing(
  page: Page,
  who: string,
  ms = 2000,
): Promise<{ before: MediaCounters; after: MediaCounters }> {
  // first wait until something has been decoded at all (ICE and DTLS take a moment)
  await expect
    .poll(async () => (await mediaCounters(page)).videoFramesDecoded, {
      message: `${who}: first decoded video frame`,
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  const before = await mediaCounters(page);
  await page.waitForTimeout(ms);
  const after = await mediaCounters(page);
  expect(after.videoFramesDecoded, `${who}: video frames decoded over ${ms} ms`).toBeGreaterThan(
    before.videoFramesDecoded,
  );
  expect(after.audioPacketsReceived, `${who}: audio packets received over ${ms} ms`).toBeGreaterThan(
    before.audioPacketsReceived,
  );
  return { before, after };
}

/**
 * Samples both sides' decoded video frames every 250 ms while `during` runs (a server restarted): the
 * longest stretch without a new decoded frame on each side, and how many samples were taken.
 */
export async function decodedFramesDuring(
  guest: Page,
  agent: Page,
  during: () => Promise<void>,
): Promise<{ samples: number; longestStall: { guest: number; agent: number } }> {
  const samples: { at: number; guest: number; agent: number }[] = [];
  let running = true;
  const sampling = (async () => {
    while (running) {
      const [g, a] = await Promise.all([mediaCounters(guest), mediaCounters(agent)]);
      samples.push({ at: Date.now(), guest: g.videoFramesDecoded, agent: a.videoFramesDecoded });
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    await during();
  } finally {
    running = false;
    await sampling;
  }
  const longest = (side: 'guest' | 'agent') => {
    let stall = 0;
    let since = samples[0]?.at ?? 0;
    for (let i = 1; i < samples.length; i++) {
      if (samples[i]![side] > samples[i - 1]![side]) since = samples[i]!.at;
      stall = Math.max(stall, samples[i]!.at - since);
    }
    return stall;
  };
  return { samples: samples.length, longestStall: { guest: longest('guest'), agent: longest('agent') } };
}
