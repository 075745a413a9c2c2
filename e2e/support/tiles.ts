/** The video a tile of the call screen shows, proven by the frames decoded for its track (getStats). */
import { expect, type Page } from '@playwright/test';

export async function trackOfTile(page: Page, testId: string): Promise<string | null> {
  return page.evaluate((id) => {
    const video = document.querySelector<HTMLVideoElement>(`[data-testid="${id}"] video`);
    return (video?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.id ?? null;
  }, testId);
}

/** Frames decoded for the video track the given tile shows (getStats, by track identifier). */
export async function framesOfTile(page: Page, testId: string): Promise<number> {
  const trackId = await trackOfTile(page, testId);
  return trackId ? framesOfTrack(page, trackId) : -1;
}

export async function framesOfTrack(page: Page, trackId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const track = { id };
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    let frames = 0;
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const stats = await pc.getStats();
      stats.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video' && s.trackIdentifier === track.id)
          frames += Number(s.framesDecoded ?? 0);
      });
    }
    return frames;
  }, trackId);
}

export async function expectTileDecoding(page: Page, testId: string, who: string): Promise<void> {
  await expect.poll(() => framesOfTile(page, testId), { message: `${who}: first screen frame`, timeout: 30_000 }).toBeGreaterThan(0);
  const before = await framesOfTile(page, testId);
  await page.waitForTimeout(1500);
  expect(await framesOfTile(page, testId), `${who}: screen frames keep being decoded`).toBeGreaterThan(before);
}
