/**
 * Stream watermark (docs/protocol.md): when the company turns it on, the mark is in
 * the guest's sent video itself — the agent's decoded frames carry it in their top-end corner —
 * not only drawn over the guest's page.
 */
import { expect, test, type Page } from '@playwright/test';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

test.afterEach(async () => restoreAll());

/** Mean red, green and blue of a region (fractions of the frame) of the agent's decoded remote frame. */
async function regionColour(page: Page, region: { x0: number; y0: number; x1: number; y1: number }) {
  return page.getByTestId('remote-video').locator('video').evaluate((video: HTMLVideoElement, r) => {
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d');
    if (!context || !canvas.width) return null;
    context.drawImage(video, 0, 0);
    const x = Math.round(r.x0 * canvas.width);
    const y = Math.round(r.y0 * canvas.height);
    const w = Math.max(1, Math.round((r.x1 - r.x0) * canvas.width));
    const h = Math.max(1, Math.round((r.y1 - r.y0) * canvas.height));
    const data = context.getImageData(x, y, w, h).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
    const n = data.length / 4;
    return { r: sum[0]! / n, g: sum[1]! / n, b: sum[2]! / n, width: canvas.width };
  }, region);
}

// the mark's plate: top-end corner, 22 % of the width and 9 % of the height, 10 % from the top (watermarkBox)
const MARK = { x0: 0.79, y0: 0.12, x1: 0.95, y1: 0.17 };
// the same band in the top-start corner: the fake camera's plain green
const CONTROL = { x0: 0.05, y0: 0.12, x1: 0.21, y1: 0.17 };

test('when the company turns the stream watermark on, then the agent\'s decoded video of the guest carries the mark', async ({}, testInfo) => {
  await arrangeCompanySettings({ streamWatermark: 'visible' });
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);

    // assert: the decoded frame's top-end corner is the mark's light plate; the other corner is the
    // fake camera's green (red channel near 0)
    await expect
      .poll(async () => (await regionColour(agent.page, MARK))?.r ?? 0, { message: 'the mark at the agent', timeout: 15_000 })
      .toBeGreaterThan(100);
    const control = await regionColour(agent.page, CONTROL);
    expect(control?.r ?? 255, 'the frame elsewhere is not whitened').toBeLessThan(60);
    await screenshot(agent.page, testInfo, 'incall-watermark-agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the stream watermark is hidden (the default), then the agent\'s decoded video has no mark', async ({}, testInfo) => {
  await arrangeCompanySettings({ streamWatermark: 'hidden' });
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    const mark = await regionColour(agent.page, MARK);
    expect(mark?.width ?? 0).toBeGreaterThan(0);
    expect(mark?.r ?? 255, 'no light plate in the top-end corner').toBeLessThan(60);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
