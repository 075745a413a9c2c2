import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_CAMERA, fakeCameraArgs } from '../e2e/support/fakeCamera.ts';

describe("the journeys' camera file", () => {
  afterEach(() => {
    delete process.env.LOBBY_E2E_DRAWN_CAMERA;
  });

  it('is a looped .y4m of the stated size and rate, made once and handed to Chromium', () => {
    const args = fakeCameraArgs();
    expect(args).toHaveLength(1);
    const file = args[0]!.replace('--use-file-for-fake-video-capture=', '');
    const header = fs.readFileSync(file).subarray(0, 64).toString('latin1').split('\n')[0]!;
    expect(header).toContain(`W${FAKE_CAMERA.width} H${FAKE_CAMERA.height} F${FAKE_CAMERA.fps}:1`);
    expect(fakeCameraArgs()).toEqual(args);
  });

  it("leaves Chromium's drawn cameras to a journey that asks for several, or when the run asks for them", () => {
    expect(fakeCameraArgs(['--use-fake-device-for-media-stream=device-count=3'])).toEqual([]);
    expect(fakeCameraArgs(['--use-file-for-fake-audio-capture=/tmp/silence.wav'])).toHaveLength(1);
    process.env.LOBBY_E2E_DRAWN_CAMERA = '1';
    expect(fakeCameraArgs()).toEqual([]);
  });
});
