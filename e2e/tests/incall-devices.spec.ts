/**
 * Devices during a call: the guest switches the microphone or the camera and flips the camera
 * without dropping the call (the tracks are replaced on the same connection); the agent keeps decoding
 * frames and receiving audio throughout.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { cameraId, chooseOther, sending, sendingCameraId } from '../support/devices.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing, mediaCounters } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from './incall-support.ts';

test('when the guest changes microphone and flips the camera during the call, then the agent keeps receiving both', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  // two fake cameras: the flip button shows when the device has more than one
  const guest = await launchParticipant('guest', {
    viewport: { width: 1024, height: 768 },
    extraArgs: ['--use-fake-device-for-media-stream=device-count=2'],
  });
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    const connections = (await mediaCounters(guest.page)).connections;
    const microphone = await sending(guest.page, 'audio');

    // act: the guest opens the device settings and switches the microphone
    await guest.page.getByTestId('devices-button').click();
    await expect(guest.page.getByTestId('device-panel')).toBeVisible();
    await chooseOther(guest.page, 'microphone-select');
    await expect.poll(() => sending(guest.page, 'audio')).not.toBe(microphone);

    // assert: still the same call and connections; the agent keeps decoding frames and receiving audio
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    expect((await mediaCounters(guest.page)).connections).toBe(connections);
    await expectMediaFlowing(agent.page, 'agent after the device change');
    await screenshot(guest.page, testInfo, 'incall-devices-guest');

    // act: the guest flips to the back camera
    const before = await sending(guest.page, 'video');
    await guest.page.getByTestId('flip-camera-button').click();
    await expect(guest.page.getByTestId('flip-camera-button')).toHaveAttribute('data-back', 'true');
    await expect.poll(() => sending(guest.page, 'video')).not.toBe(before);

    // assert: frames keep arriving at the agent
    await expectMediaFlowing(agent.page, 'agent after the flip');
    await expect(agent.page.getByTestId('active-call')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

// Chromium's fake cameras: fake_device_0 is I420, fake_device_1 a depth camera (16-bit grey Y16: it renders
// but the encoder takes none of its frames), fake_device_2 MJPEG. Switching to device 1 used to freeze
// the agent's video; now the engine watches the encoder and goes back to the previous camera.
test('when the guest switches to another camera during the call, then the agent keeps decoding its frames, and a camera whose frames cannot be sent is refused', async ({}, testInfo) => {
  test.slow(); // two camera changes, each watched for up to 4 s, and three media checks on a shared machine
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', {
    viewport: { width: 1024, height: 768 },
    extraArgs: ['--use-fake-device-for-media-stream=device-count=3'],
  });
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    await guest.page.getByTestId('devices-button').click();
    const first = await cameraId(guest.page, 'fake_device_0');
    const depth = await cameraId(guest.page, 'fake_device_1');
    const other = await cameraId(guest.page, 'fake_device_2');
    expect(await sendingCameraId(guest.page)).toBe(first);

    // act: the guest picks the other (MJPEG) camera
    await guest.page.getByTestId('camera-select').selectOption(other);

    // assert: the new camera is sent on the same connection; the guest encodes and the agent decodes its frames
    await expect.poll(() => sendingCameraId(guest.page)).toBe(other);
    await expect(guest.page.getByTestId('camera-select')).toHaveValue(other);
    const encoded = (await mediaCounters(guest.page)).videoFramesEncoded;
    await expectMediaFlowing(agent.page, 'agent after the camera switch');
    expect((await mediaCounters(guest.page)).videoFramesEncoded, 'guest: frames encoded after the switch').toBeGreaterThan(encoded);
    await expect(guest.page.getByTestId('device-panel').getByRole('alert')).toHaveCount(0);
    await screenshot(agent.page, testInfo, 'incall-devices-camera-switch-agent');

    // act: the guest picks the depth camera
    await guest.page.getByTestId('camera-select').selectOption(depth);

    // assert: the guest is told, the previous camera is sent again and the agent's video keeps moving
    await expect(guest.page.getByTestId('device-panel').getByRole('alert')).toHaveText(/could not be used/);
    await expect.poll(() => sendingCameraId(guest.page)).toBe(other);
    await expect(guest.page.getByTestId('camera-select')).toHaveValue(other);
    await expectMediaFlowing(agent.page, 'agent after the refused camera');
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await screenshot(guest.page, testInfo, 'incall-devices-camera-refused-guest');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
