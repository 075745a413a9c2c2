/**
 * media.ts's getStats proof for any frame (the guest app runs in the widget's iframe), which also asks
 * that the frame's own camera is encoded.
 */
import { expect, type Frame, type Page } from '@playwright/test';
import { mediaCounters } from '../media.ts';

export async function expectFrameMediaFlowing(target: Page | Frame, who: string, ms = 2000): Promise<void> {
  await expect
    .poll(async () => (await mediaCounters(target)).videoFramesDecoded, { message: `${who}: first decoded video frame`, timeout: 30_000 })
    .toBeGreaterThan(0);
  const before = await mediaCounters(target);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await mediaCounters(target);
  expect(after.videoFramesDecoded, `${who}: video frames decoded over ${ms} ms`).toBeGreaterThan(before.videoFramesDecoded);
  expect(after.audioPacketsReceived, `${who}: audio packets received over ${ms} ms`).toBeGreaterThan(before.audioPacketsReceived);
  expect(after.videoFramesEncoded, `${who}: video frames encoded over ${ms} ms`).toBeGreaterThan(before.videoFramesEncoded);
}
