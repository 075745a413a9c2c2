/**
 * Mute state: a muted side stops sending (the other side's received audio packets stop
 * increasing) and the other side shows it muted, through the mute flags of the room presence
 * (docs/protocol.md "Mute state"); unmuting brings both back.
 */
import { expect, test, type Page } from '@playwright/test';
import { closeAll, screenshot } from '../support/journey.ts';
import { mediaCounters } from '../support/media.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

/** A 1×1 PNG: the agent's picture. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** Received audio packets over `ms` (after letting in-flight packets land). */
async function audioPacketsOver(page: Page, ms = 1500): Promise<number> {
  await page.waitForTimeout(500);
  const before = (await mediaCounters(page)).audioPacketsReceived;
  await page.waitForTimeout(ms);
  return (await mediaCounters(page)).audioPacketsReceived - before;
}

test('when the guest mutes, then the agent stops receiving its audio and shows it muted; the same the other way', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    // arrange: in the call, the agent chooses its picture in the console's header (its desk announces
    // it at once in the guest's room)
    await agent.page.getByTestId('profile-picture-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PICTURE });
    await expect(agent.page.locator('header img[src^="/api/profile-images/"]')).toBeVisible();
    const call = agent.page.getByTestId('active-call');
    await expect(call).toHaveAttribute('data-guest-audio-muted', 'false');
    expect(await audioPacketsOver(agent.page)).toBeGreaterThan(20);

    // act: the guest mutes its microphone
    await guest.page.getByTestId('mute-audio-button').click();

    // assert: the agent shows it and no more audio arrives from the guest
    await expect(call).toHaveAttribute('data-guest-audio-muted', 'true');
    await expect(agent.page.getByTestId('guest-muted')).toBeVisible();
    expect(await audioPacketsOver(agent.page)).toBe(0);
    await screenshot(agent.page, testInfo, 'incall-mute-agent-sees-guest-muted');

    // act: the guest unmutes
    await guest.page.getByTestId('mute-audio-button').click();

    // assert: audio flows again and the indicator is gone
    await expect(call).toHaveAttribute('data-guest-audio-muted', 'false');
    await expect(agent.page.getByTestId('guest-muted')).toHaveCount(0);
    expect(await audioPacketsOver(agent.page)).toBeGreaterThan(20);

    // act: the agent mutes its microphone
    await agent.page.getByTestId('agent-mute-audio-button').click();

    // assert: the guest shows the agent muted and receives no more audio
    const note = guest.page.getByTestId('remote-muted');
    await expect(note).toHaveAttribute('data-audio', 'true');
    // the notice names the agent by its name, never its address
    await expect(note).toContainText('Demo Agent');
    await expect(note).not.toContainText('@');
    expect(await audioPacketsOver(guest.page)).toBe(0);
    await screenshot(guest.page, testInfo, 'incall-mute-guest-sees-agent-muted');

    // act: the agent turns its camera off too, then unmutes the microphone
    await agent.page.getByTestId('agent-mute-video-button').click();
    await expect(note).toHaveAttribute('data-video', 'true');
    // the guest's tile shows the agent's picture while its camera is off (peers profileImageUrl)
    const poster = guest.page.getByTestId('remote-video').getByRole('img', { name: 'Demo Agent' });
    await expect(poster).toBeVisible();
    await expect(poster).toHaveAttribute('src', /^\/api\/profile-images\/[A-Za-z0-9_-]+$/);
    expect(await poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await expect(guest.page.getByTestId('remote-video')).not.toContainText('@');
    await screenshot(guest.page, testInfo, 'incall-mute-guest-sees-agent-picture');
    // the presence can overtake the last frames already on their way or in the jitter buffer (a loaded
    // machine decodes them late): wait until the stream has drained, then prove it stays stopped
    await expect
      .poll(
        async () => {
          const before = (await mediaCounters(guest.page)).videoFramesDecoded;
          await guest.page.waitForTimeout(500);
          return (await mediaCounters(guest.page)).videoFramesDecoded - before;
        },
        { timeout: 10_000, message: "the agent's video stopped reaching the guest" },
      )
      .toBe(0);
    const frames = (await mediaCounters(guest.page)).videoFramesDecoded;
    await guest.page.waitForTimeout(1500);
    expect((await mediaCounters(guest.page)).videoFramesDecoded - frames).toBeLessThan(3);
    await agent.page.getByTestId('agent-mute-audio-button').click();

    // assert: audio is back, the camera still off
    await expect(note).toHaveAttribute('data-audio', 'false');
    expect(await audioPacketsOver(guest.page)).toBeGreaterThan(20);
  } finally {
    // the demo agent is shared by the other journeys: back to its initial
    await agent.page
      .evaluate(() => fetch('/api/console/profile-image', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uploadId: null }) }))
      .catch(() => undefined);
    await closeAll(testInfo, agent, guest);
  }
});

test('when a voice call is answered by an agent without a picture, then the guest sees the agent by its name and initial, never its address', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest, 'voice');
    const screen = guest.page.locator('[data-screen="ongoing"][data-call-kind="voice"]');
    await expect(screen).toBeVisible();
    await expect(screen.getByText('Demo Agent', { exact: true })).toBeVisible();
    // no picture: the initial, not an image
    await expect(screen.getByRole('img', { name: 'Demo Agent' })).toHaveCount(0);
    await expect(screen.getByText('D', { exact: true })).toBeVisible();
    expect(await screen.innerText()).not.toContain('@');
    await screenshot(guest.page, testInfo, 'incall-voice-agent-name');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
