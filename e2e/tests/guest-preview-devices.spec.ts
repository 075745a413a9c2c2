/**
 * The devices chosen on the preview screen are the ones the call sends: the guest picks a
 * microphone other than the default, continues and calls; the call's published audio track is that
 * microphone (and the chosen camera is the video track's).
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { closeAll } from '../support/journey.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { LAPTOP, expectScreen, record } from '../support/guest/screens.ts';

let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  await restoreAll();
});

/** The device id and label of the track the guest publishes (its peer connection's sender). */
async function published(page: Page, kind: 'audio' | 'video'): Promise<{ deviceId: string; label: string } | null> {
  return page.evaluate((k) => {
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const track = pc.getSenders().find((s) => s.track?.kind === k)?.track;
      if (track) return { deviceId: track.getSettings().deviceId ?? '', label: track.label };
    }
    return null;
  }, kind);
}

/** Chooses, in a device select, an option other than the selected one and other than "default". */
async function chooseAnother(page: Page, testId: string): Promise<{ value: string; label: string }> {
  const select = page.getByTestId(testId);
  const another = async () => {
    const current = await select.inputValue();
    const options = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: (o.textContent ?? '').trim() })));
    const currentLabel = options.find((o) => o.value === current)?.label;
    // "default" is an alias of one of the others: pick a real, different device
    return options.find((o) => o.value && o.value !== current && o.value !== 'default' && o.value !== 'communications' && o.label !== currentLabel);
  };
  // the list is complete (ids and labels) only once the preview's camera and microphone are granted: the
  // screen can show before the browser has listed the devices again
  await expect.poll(another, { message: `${testId}: Chromium's fake devices offer a second one` }).toBeTruthy();
  const other = await another();
  await select.selectOption(other!.value);
  await expect(select).toHaveValue(other!.value);
  return other!;
}

test('when the guest chooses another microphone on the preview, then the call publishes that microphone', async ({}, testInfo) => {
  await arrangeCompanySettings({ previewScreen: true, callType: 'userSelect' });
  const launched = await launchParticipant('guest', {
    viewport: LAPTOP,
    extraArgs: ['--use-fake-device-for-media-stream=device-count=2'],
  });
  browsers.push(launched);
  const { page } = launched;
  await page.goto('/');
  await expectScreen(page, 'preview');

  // act: another microphone (the preview reopens its stream with it), then continue and call
  const microphone = await chooseAnother(page, 'microphone-select');
  await page.getByTestId('continue-button').click();
  await expectScreen(page, 'selection');
  await page.getByTestId('assignment-option').first().click();
  await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  await expectScreen(page, 'waiting');

  // assert: the published audio track is the chosen microphone
  await expect.poll(() => published(page, 'audio').then((t) => t?.deviceId)).toBe(microphone.value);
  const audio = await published(page, 'audio');
  expect(audio?.label).toBe(microphone.label);
  await record(page, testInfo, 'preview-devices-waiting');
  await page.getByTestId('cancel-button').click();
  await expectScreen(page, 'abandoned');
});
