/**
 * Screen share: a second publisher `{name}-screen`. The other side decodes its frames and
 * shows it large; the sharer does not receive its own screen; when the browser's sharing track ends,
 * sharing stops and no more screen frames arrive. The agent can share too.
 */
import { expect, test } from '@playwright/test';
import { closeAll, screenshot } from '../support/journey.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';
import { expectTileDecoding, framesOfTrack, trackOfTile } from '../support/tiles.ts';

/** Keeps the streams getDisplayMedia hands out, so the test can end them the way the browser does. */
const CAPTURE_DISPLAY_STREAMS = `(() => {
  const md = navigator.mediaDevices;
  if (!md || !md.getDisplayMedia) return;
  const original = md.getDisplayMedia.bind(md);
  window.__displayStreams = [];
  md.getDisplayMedia = async (constraints) => {
    const stream = await original(constraints);
    window.__displayStreams.push(stream);
    return stream;
  };
})();`;

test('when the guest shares its screen, then the agent decodes it large; it stops when the sharing track ends; the agent can share too', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  await guest.context.addInitScript(CAPTURE_DISPLAY_STREAMS);
  await agent.context.addInitScript(CAPTURE_DISPLAY_STREAMS);
  try {
    await guestCallsAndAgentAnswers(agent, guest);

    // act: the guest shares its screen
    await guest.page.getByTestId('screen-share-button').click();

    // assert: the agent decodes the screen's frames, shown large; the guest does not receive itself
    await expect(guest.page.getByTestId('screen-share-button')).toHaveAttribute('data-sharing', 'true');
    await expect(agent.page.getByTestId('remote-screen')).toHaveAttribute('data-has-video', 'true');
    await expectTileDecoding(agent.page, 'remote-screen', 'agent');
    await expect(guest.page.getByTestId('remote-screen')).toHaveCount(0);
    await expect(guest.page.getByTestId('sharing-note')).toBeVisible();
    await screenshot(agent.page, testInfo, 'incall-screenshare-agent-sees-guest-screen');

    const screenTrack = (await trackOfTile(agent.page, 'remote-screen')) ?? '';
    expect(screenTrack).not.toBe('');

    // act: the browser's sharing track ends (what "Stop sharing" in the browser's bar does)
    await guest.page.evaluate(() => {
      const streams = (window as unknown as { __displayStreams: MediaStream[] }).__displayStreams;
      for (const track of streams.flatMap((s) => s.getTracks())) {
        track.stop();
        track.dispatchEvent(new Event('ended'));
      }
    });

    await expect(guest.page.getByTestId('screen-share-button')).toHaveAttribute('data-sharing', 'false');
    await expect(agent.page.getByTestId('remote-screen')).toHaveCount(0);
    await expect(agent.page.getByTestId('remote-video')).toHaveAttribute('data-has-video', 'true');
    await agent.page.waitForTimeout(500);
    const afterEnd = await framesOfTrack(agent.page, screenTrack);
    await agent.page.waitForTimeout(1500);
    expect(await framesOfTrack(agent.page, screenTrack), 'agent: no screen frames after the end').toBe(afterEnd);

    // act: the agent shares its screen
    await agent.page.getByTestId('agent-screen-share-button').click();

    // assert: the guest decodes the agent's screen, shown large
    await expect(guest.page.getByTestId('remote-screen')).toHaveAttribute('data-has-video', 'true');
    await expectTileDecoding(guest.page, 'remote-screen', 'guest');
    await expect(agent.page.getByTestId('remote-screen')).toHaveCount(0);
    await screenshot(guest.page, testInfo, 'incall-screenshare-guest-sees-agent-screen');

    // act: the agent stops sharing with its button
    await agent.page.getByTestId('agent-screen-share-button').click();

    // assert: the guest's large screen goes; the agent's camera is the main picture again
    await expect(guest.page.getByTestId('remote-screen')).toHaveCount(0);
    await expect(guest.page.getByTestId('remote-video')).toHaveAttribute('data-has-video', 'true');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
