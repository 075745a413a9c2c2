import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VIDEO_CONSTRAINTS, getLocalMedia } from '../src/media/devices.ts';
import { ApiError } from '../src/api/http.ts';
import { MEDIA_SERVER_DOWN, grantWithRetry, type MediaNotice } from '../src/media/mediaHealth.ts';

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

  it('when the microphone of a voice call is refused, then the error says so (not a network failure)', async () => {
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) },
    });
    await expect(getLocalMedia({ video: false })).rejects.toThrow('disabledMicrophone');
    await expect(getLocalMedia({ video: true })).rejects.toThrow('disabledCamera');
  });
});

describe('media grant while Janus is down (mediaHealth)', () => {
  it('when the server answers 5xx then a grant, then the guest is told it is waited for and gets the grant', async () => {
    const notices: MediaNotice[] = [];
    let n = 0;
    const grant = { room: 'r', pin: 'p', token: 't', expires_in: 60 };
    const got = await grantWithRetry(() => (++n < 3 ? Promise.reject(new ApiError(502, 'Bad Gateway')) : Promise.resolve(grant)), {
      stopIf: () => false,
      notice: (x) => notices.push(x),
    });
    expect(got).toBe(grant);
    expect(notices).toEqual(['waitingForServer', 'waitingForServer']);
  });

  it('when every attempt fails, then the error reads mediaServerDown; a 4xx is final at once', async () => {
    let n = 0;
    await expect(
      grantWithRetry(() => Promise.reject(new ApiError(503, 'down')), { attempts: 3, stopIf: () => false, notice: () => n++ }),
    ).rejects.toThrow(MEDIA_SERVER_DOWN);
    expect(n).toBe(2);
    let m = 0;
    await expect(
      grantWithRetry(() => (m++, Promise.reject(new ApiError(403, 'not yours'))), { stopIf: () => false, notice: () => undefined }),
    ).rejects.toThrow('not yours');
    expect(m).toBe(1);
  });
});
