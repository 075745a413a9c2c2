/**
 * A long call can be reviewed (docs/api.md "Console and administration": the recording's file answers byte
 * ranges): an admin plays a 30-second recording in the console's Recordings page and clicks three
 * quarters along the player's own timeline, as a person does; the video plays on from there. When the
 * server answered every Range request with the whole file, Chromium could not seek (the media's seekable
 * range was empty) and the player stayed at the start.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { addReport, DEMO_ADMIN, registerGuest } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';

const recordingsRoot = () => process.env.LOBBY_RECORDINGS_DIR || path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'recordings');
const SECONDS = 30;

test('when an admin clicks along a recording’s timeline, then the player seeks there and plays on', async ({}, testInfo) => {
  test.setTimeout(120_000);
  // arrange: a call of the demo company with a processed recording, as the server's sweep leaves one
  const guest = await registerGuest(18);
  const callId = `${guest.username}--${randomBytes(4).toString('hex')}`;
  await addReport(guest.access_token, { call_id: callId, company: 18, source: 'site' });
  const dir = path.join(recordingsRoot(), '18', callId);
  fs.mkdirSync(dir, { recursive: true });
  const raw = path.join(dir, `${callId}_${guest.username}_guest_1-video-0.mjr`);
  fs.writeFileSync(raw, 'raw');
  const old = new Date(Date.now() - 120_000);
  fs.utimesSync(raw, old, old);
  // a keyframe every second: a seek lands within a second of where it was asked
  execFileSync('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=15:duration=${SECONDS}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '15', '-c:a', 'aac', '-movflags', '+faststart',
    path.join(dir, `${callId}.mp4`),
  ]);

  const admin = await launchParticipant('admin', { viewport: { width: 1366, height: 768 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-reports').click();
    await admin.page.getByRole('link', { name: 'Recordings' }).click();
    const row = admin.page.locator(`[data-testid="recording-row"][data-call-id="${callId}"]`);
    await row.getByTestId('recording-play').click();
    const player = row.getByTestId('recording-player');
    await expect(player).toBeVisible();
    const at = () => player.evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect.poll(at, { message: 'the recording plays', timeout: 20_000 }).toBeGreaterThan(0.3);
    expect(await at()).toBeLessThan(10);

    // act: the admin turns the wheel until the whole player is on screen (recordings of earlier calls may
    // list above it), the mouse over the player shows its controls; a click three quarters along its timeline
    const viewport = admin.page.viewportSize()!;
    for (let i = 0; i < 20; i++) {
      const { y, height } = (await player.boundingBox())!;
      if (y >= 0 && y + height <= viewport.height) break;
      await admin.page.mouse.move(viewport.width / 2, viewport.height / 2);
      await admin.page.mouse.wheel(0, Math.min(300, y + height - viewport.height + 20));
      await admin.page.waitForTimeout(100);
    }
    const box = (await player.boundingBox())!;
    expect(box.y + box.height, 'the whole player is on screen').toBeLessThanOrEqual(viewport.height);
    await admin.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await admin.page.waitForTimeout(300);
    await admin.page.mouse.click(box.x + box.width * 0.75, box.y + box.height - 14);

    // assert: the player is past the middle and plays on from there
    await expect.poll(at, { message: 'the player seeked', timeout: 10_000 }).toBeGreaterThan(SECONDS / 2);
    const landed = await at();
    await expect.poll(at, { message: 'it plays on from there', timeout: 10_000 }).toBeGreaterThan(landed + 0.5);
    expect(await player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    await screenshot(admin.page, testInfo, 'recording-seeked');
    // the row's downloads are buttons that look like buttons, not underlined links
    const download = row.getByRole('link', { name: 'Download', exact: true });
    expect(await download.evaluate((a) => [getComputedStyle(a).textDecorationLine, getComputedStyle(a).borderTopStyle])).toEqual(['none', 'solid']);
  } finally {
    await closeAll(testInfo, admin);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
