/**
 * The console's in-call controls (deviceConfigOpen / deviceConfigChanged, mainUser):
 * the agent changes camera and microphone during the call without dropping it, sets each participant's
 * volume, and chooses who is shown large when a supervisor is in the call too; by keyboard, in English
 * and Arabic, axe-clean.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import AxeBuilder from '@axe-core/playwright';
import { settled } from '../support/guest/screens.ts';
import { guestCallsAndAgentAnswers, launchPair, supervisorSignsIn } from './incall-support.ts';

/**
 * axe (WCAG 2.1 AA) on the call area: the controls and panels this spec is about, not the workspace
 * around them.
 */
async function expectCallAreaAccessible(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  await settled(page);
  const results = await new AxeBuilder({ page })
    .include('[data-testid="active-call"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  await testInfo.attach(`axe-${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${label}`).toEqual([]);
}

/** The device id of the camera, or the label of the microphone, the page is sending. */
async function sending(page: Page, kind: 'audio' | 'video'): Promise<string> {
  return page.evaluate((k) => {
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const track = pc.getSenders().find((s) => s.track?.kind === k)?.track;
      if (track) return k === 'video' ? (track.getSettings().deviceId ?? '') : `${track.label}#${track.id}`;
    }
    return '';
  }, kind);
}

test('when the agent changes camera, microphone and the guest\'s volume in the call settings, then the guest keeps receiving the agent and the guest plays quieter', async ({}, testInfo) => {
  test.slow(); // two device changes, a keyboard walk and axe twice on a loaded two-core machine
  // three fake cameras: fake_device_2 is one whose frames can be sent (fake_device_1 is a depth camera)
  const agent = await launchParticipant('agent', { extraArgs: ['--use-fake-device-for-media-stream=device-count=3'] });
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    const page = agent.page;

    // act: the agent opens the call settings from the keyboard
    await page.getByTestId('agent-settings-button').focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('agent-settings-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('agent-settings-button')).toHaveAttribute('aria-expanded', 'true');
    // one participant (the guest): a volume, and nothing to choose as the main picture
    await expect(panel.getByTestId('participant-settings')).toHaveCount(1);
    await expect(panel.getByTestId('main-participant-radio')).toHaveCount(0);

    // act: another camera
    const camera = await page.getByTestId('agent-camera-select').locator('option', { hasText: 'fake_device_2' }).getAttribute('value');
    await page.getByTestId('agent-camera-select').selectOption(camera ?? '');

    // assert: the new camera is sent on the same call and the guest keeps decoding it
    await expect.poll(() => sending(page, 'video')).toBe(camera);
    await expect(page.getByTestId('agent-camera-select')).toHaveValue(camera ?? '');
    await expectMediaFlowing(guest.page, 'guest after the agent\'s camera change');

    // act: another microphone
    const microphone = await sending(page, 'audio');
    const select = page.getByTestId('agent-microphone-select');
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const other = options.find((o) => o && o !== 'default' && o !== '') ?? '';
    await select.selectOption(other);

    // assert: the new microphone is sent; the guest keeps receiving audio; no error
    await expect.poll(() => sending(page, 'audio')).not.toBe(microphone);
    await expectMediaFlowing(guest.page, 'guest after the agent\'s microphone change');
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await expect(page.getByTestId('active-call')).toBeVisible();

    // act: the guest's volume down to 30 % with the arrow keys
    const volume = panel.getByTestId('participant-volume');
    await volume.focus();
    for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowLeft');

    // assert: the slider says so, and the guest's sound (its own <audio>; the <video> is muted) plays at that volume
    await expect(volume).toHaveValue('0.3');
    await expect
      .poll(() => page.getByTestId('remote-video').locator('audio').evaluate((a: HTMLAudioElement) => a.volume))
      .toBeCloseTo(0.3, 5);
    expect(await page.getByTestId('remote-video').locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);

    // act: another speaker (Chromium's fake audio outputs)
    const speaker = panel.getByTestId('agent-speaker-select');
    const outputs = await speaker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const chosen = outputs.at(-1) ?? '';
    expect(chosen, 'a speaker other than the default is offered').not.toBe('');
    await speaker.selectOption(chosen);

    // assert: the guest is played through it, and the guest's audio keeps arriving
    await expect
      .poll(() => page.getByTestId('remote-video').locator('audio').evaluate((a: HTMLAudioElement) => a.sinkId))
      .toBe(chosen);
    await expectMediaFlowing(page, 'agent after the speaker change');

    await expectCallAreaAccessible(page, testInfo, 'console-call-settings-en');
    await screenshot(page, testInfo, 'incall-console-settings-en');

    // act: Arabic
    await page.getByTestId('language-switch').locator('[data-language="ar"]').click();

    // assert: right to left, the panel in Arabic, the settings kept, still axe-clean
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(panel.getByRole('heading')).toHaveText('إعدادات المكالمة');
    await expect(volume).toHaveValue('0.3');
    await expectCallAreaAccessible(page, testInfo, 'console-call-settings-ar');
    await screenshot(page, testInfo, 'incall-console-settings-ar');

    // act: the close button closes the panel from the keyboard
    await panel.getByRole('button').first().focus();
    await page.keyboard.press('Enter');
    await expect(panel).toHaveCount(0);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when a supervisor is in the call too, then the agent chooses who is shown large', async ({}, testInfo) => {
  test.slow(); // three browsers on a two-core machine
  const { agent, guest } = await launchPair();
  const supervisor = await launchParticipant('supervisor');
  try {
    await supervisorSignsIn(supervisor.page);
    const supervisorJid = (await consoleUserJid(supervisor.page)).split('/')[0] ?? '';
    await guestCallsAndAgentAnswers(agent, guest);
    await supervisor.page.getByTestId('running-call').getByTestId('join-call-button').click();
    await expect(agent.page.getByTestId('remote-video-other')).toHaveCount(1);
    const page = agent.page;
    const main = page.getByTestId('remote-video');
    const guestName = await main.getAttribute('aria-label');

    // act: the agent opens the settings; both participants are listed, the guest is large
    await page.getByTestId('agent-settings-button').click();
    const entries = page.getByTestId('participant-settings');
    await expect(entries).toHaveCount(2);
    const supervisorEntry = entries.filter({ hasText: supervisorJid });
    await expect(entries.first().getByTestId('main-participant-radio')).toBeChecked();

    // act: the supervisor is chosen as the main participant, by keyboard
    await supervisorEntry.getByTestId('main-participant-radio').focus();
    await page.keyboard.press('Space');

    // assert: the large tile is the supervisor's, playing frames; the guest moved to the small tiles
    await expect(main).toHaveAttribute('aria-label', supervisorJid);
    await expect(page.getByTestId('remote-video-other')).toHaveAttribute('aria-label', guestName ?? '');
    await expect.poll(() => main.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    await expect(supervisorEntry.getByTestId('main-participant-radio')).toBeChecked();
    await expectCallAreaAccessible(page, testInfo, 'console-main-participant');
    await screenshot(page, testInfo, 'incall-console-main-participant');

    // act: back to the guest with the arrow keys of the radio group
    await page.keyboard.press('ArrowUp');

    // assert: the guest is large again
    await expect(main).toHaveAttribute('aria-label', guestName ?? '');
  } finally {
    await closeAll(testInfo, agent, guest, supervisor);
  }
});
