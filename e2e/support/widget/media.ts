/**
 * media.ts's getStats proof, for any frame (the guest app runs in the widget's iframe). The loopback init
 * script is a context init script, so it runs in iframes too and records their RTCPeerConnections.
 */
import { expect, type Frame, type Page } from '@playwright/test';
import type { MediaCounters } from '../media.ts';

export async function frameMediaCounters(target: Page | Frame): Promise<MediaCounters> {
  return target.evaluate(async () => {
    const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter(
      (pc) => pc.connectionState !== 'closed',
    );
    const totals = { videoFramesDecoded: 0, audioPacketsReceived: 0, videoFramesEncoded: 0, audioPacketsSent: 0, connections: pcs.length };
    for (const pc of pcs) {
      const report = await pc.getStats();
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') totals.videoFramesDecoded += Number(s.framesDecoded ?? 0);
        if (s.type === 'inbound-rtp' && s.kind === 'audio') totals.audioPacketsReceived += Number(s.packetsReceived ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'video') totals.videoFramesEncoded += Number(s.framesEncoded ?? 0);
        if (s.type === 'outbound-rtp' && s.kind === 'audio') totals.audioPacketsSent += Number(s.packetsSent ?? 0);
      });
    }
    return totals;
  });
}

export async function expectFrameMediaFlowing(target: Page | Frame, who: string, ms = 2000): Promise<void> {
  await expect
    .poll(async () => (await frameMediaCounters(target)).videoFramesDecoded, { message: `${who}: first decoded video frame`, timeout: 30_000 })
    .toBeGreaterThan(0);
  const before = await frameMediaCounters(target);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await frameMediaCounters(target);
  expect(after.videoFramesDecoded, `${who}: video frames decoded over ${ms} ms`).toBeGreaterThan(before.videoFramesDecoded);
  expect(after.audioPacketsReceived, `${who}: audio packets received over ${ms} ms`).toBeGreaterThan(before.audioPacketsReceived);
  expect(after.videoFramesEncoded, `${who}: video frames encoded over ${ms} ms`).toBeGreaterThan(before.videoFramesEncoded);
}
