/**
 * Cancel while the call is still starting: the guest presses Cancel before the call report is
 * answered. The call must stop there: no camera opened afterwards, nothing published, the abandoned
 * screen stays. The report's answer is held back by the test (the request still reaches the real server)
 * so that Cancel lands in that window every time.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { closeAll, screenshot } from '../support/journey.ts';

const RECORD_MEDIA = `(() => {
  const streams = (window.__gumStreams = []);
  const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    streams.push(stream);
    return stream;
  };
})();`;

test('when the guest cancels before the call report is answered, then no camera stays open and nothing is published', async ({}, testInfo) => {
  const guest = await launchParticipant('guest');
  try {
    // arrange: getUserMedia is recorded; the call report's answer arrives 2.5 s late
    await guest.context.addInitScript(RECORD_MEDIA);
    let reportAnswered!: () => void;
    let reportAsked!: () => void;
    const reportDone = new Promise<void>((resolve) => (reportAnswered = resolve));
    const reportSent = new Promise<void>((resolve) => (reportAsked = resolve));
    await guest.page.route('**/api/call-report/add', async (route) => {
      reportAsked();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
      reportAnswered();
    });
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').first().click();

    // act: Call, then Cancel while the report is still on its way (it is sent once the camera is open:
    // docs/guest-journey.md "Rules")
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await reportSent;
    await guest.page.getByTestId('cancel-button').click();
    await reportDone;
    // what the engine would do next (camera, Janus session, publish) takes well under 3 s on this stack
    await guest.page.waitForTimeout(3000);

    // assert: abandoned, no live camera or microphone track, no peer connection left open
    await expect(guest.page.locator('[data-screen="abandoned"]')).toBeVisible();
    const media = await guest.page.evaluate(() => {
      const w = window as unknown as { __gumStreams: MediaStream[]; __lobbyPeerConnections?: RTCPeerConnection[] };
      return {
        liveTracks: w.__gumStreams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live').length,
        openPeerConnections: (w.__lobbyPeerConnections ?? []).filter((pc) => pc.connectionState !== 'closed').length,
      };
    });
    expect(media.liveTracks, 'camera and microphone are released').toBe(0);
    expect(media.openPeerConnections, 'nothing is published').toBe(0);
    await screenshot(guest.page, testInfo, 'guest-cancel-abandoned');
  } finally {
    await closeAll(testInfo, guest);
  }
});
