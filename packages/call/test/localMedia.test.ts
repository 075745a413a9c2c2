import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VIDEO_CONSTRAINTS, getLocalMedia } from '../src/media/devices.ts';

/** The constraints getUserMedia was asked with. */
function stubGetUserMedia(): Array<MediaStreamConstraints> {
  const asked: MediaStreamConstraints[] = [];
  vi.stubGlobal('navigator', {
    mediaDevices: {
      getUserMedia: (constraints: MediaStreamConstraints) => {
        asked.push(constraints);
        return Promise.resolve({} as MediaStream);
      },
    },
  });
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

describe('getLocalMedia', () => {
  it('when the guest chose a microphone (audioConstraints.deviceId), then the call asks for exactly it', async () => {
    const asked = stubGetUserMedia();
    await getLocalMedia({ video: true, audioConstraints: { deviceId: { exact: 'mic-2' } } });
    expect(asked[0]).toEqual({ audio: { deviceId: { exact: 'mic-2' } }, video: DEFAULT_VIDEO_CONSTRAINTS });
  });

  it('when nothing was chosen, then any microphone will do', async () => {
    const asked = stubGetUserMedia();
    await getLocalMedia({ video: false, audioConstraints: {} });
    await getLocalMedia({ video: false });
    expect(asked).toEqual([
      { audio: true, video: false },
      { audio: true, video: false },
    ]);
  });

  it('when a device change names a microphone, then it wins over the one chosen before', async () => {
    const asked = stubGetUserMedia();
    await getLocalMedia({ video: false, audioConstraints: { deviceId: { exact: 'mic-2' } }, audioDeviceId: 'mic-3' });
    expect(asked[0]?.audio).toEqual({ deviceId: { exact: 'mic-3' } });
  });
});
