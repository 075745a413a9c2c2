/** The guest's devices in a call, as its peer connections send them and its device panel offers them. */
import { expect, type Page } from '@playwright/test';

/** The label and id of the camera or microphone track the guest is sending ('' when none). */
export async function sending(page: Page, kind: 'audio' | 'video'): Promise<string> {
  return page.evaluate((k) => {
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const sender = pc.getSenders().find((s) => s.track?.kind === k);
      if (sender?.track) return `${sender.track.label}#${sender.track.id}`;
    }
    return '';
  }, kind);
}

/** Picks, in a device select, an option other than the one selected now. */
export async function chooseOther(page: Page, testId: string): Promise<string> {
  const select = page.getByTestId(testId);
  const value = await select.inputValue();
  const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const other = options.find((o) => o && o !== value) ?? '';
  expect(other, `${testId}: a second device`).not.toBe('');
  await select.selectOption(other);
  return other;
}

/** The device id of the camera whose label is `label`, from the guest's camera select. */
export async function cameraId(page: Page, label: string): Promise<string> {
  return page.getByTestId('camera-select').locator('option', { hasText: label }).getAttribute('value').then((v) => v ?? '');
}

/** The id of the camera the guest is sending (what Chromium's track says), '' when none. */
export async function sendingCameraId(page: Page): Promise<string> {
  return page.evaluate(() => {
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const track = pc.getSenders().find((s) => s.track?.kind === 'video')?.track;
      if (track) return track.getSettings().deviceId ?? '';
    }
    return '';
  });
}
