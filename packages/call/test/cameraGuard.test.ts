/**
 * The camera guard both transports run after a camera switch (src/media/cameraGuard.ts: MediaSession for
 * Janus, P2PTransport for p2p; the p2p path inside the engines is in p2pEngines.test.ts), on fake senders
 * whose stats count the frames their encoder put out.
 */
import { describe, expect, it } from 'vitest';
import { UnsendableCameraError, keepSendableCamera } from '../src/media/cameraGuard.ts';

/** A sender of a `kind` track whose encoder puts out `perRead` more frames at each stats read. */
function sender(kind: 'audio' | 'video', perRead: number): RTCRtpSender {
  let frames = 0;
  return {
    track: { kind },
    getStats: () => {
      frames += perRead;
      return Promise.resolve(new Map([['out', { type: 'outbound-rtp', kind, framesEncoded: frames }]]));
    },
  } as unknown as RTCRtpSender;
}

function guard(senders: RTCRtpSender[]) {
  const restored: string[] = [];
  return {
    restored,
    options: {
      senders: () => senders,
      previousCamera: 'front',
      restore: (deviceId: string) => {
        restored.push(deviceId);
        return Promise.resolve();
      },
      probeMs: 40,
      stopped: () => false,
    },
  };
}

describe('the camera guard after a camera switch', () => {
  it('when the encoder puts out the new camera\'s frames, then the new camera stays', async () => {
    const { restored, options } = guard([sender('audio', 0), sender('video', 3)]);

    await expect(keepSendableCamera(options)).resolves.toBeUndefined();
    expect(restored).toEqual([]);
  });

  it('when the encoder puts out no frame of the new camera (a depth camera), then the previous camera is put back and the switch is refused', async () => {
    // the audio sender's numbers are not the camera's
    const { restored, options } = guard([sender('audio', 5), sender('video', 0)]);

    await expect(keepSendableCamera(options)).rejects.toBeInstanceOf(UnsendableCameraError);
    expect(restored).toEqual(['front']);
  });

  it('when no camera is being sent (no session yet), then there is nothing to watch and the switch stays', async () => {
    const { restored, options } = guard([sender('audio', 0)]);

    await expect(keepSendableCamera(options)).resolves.toBeUndefined();
    expect(restored).toEqual([]);
  });
});
