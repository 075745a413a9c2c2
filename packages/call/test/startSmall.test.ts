/**
 * A new publisher's first frames at about 320×240 (media/startSmall.ts): its video sender starts scaled
 * down so that the encoder drops none of its first frames at the start rate, and goes back to full size
 * FULL_SIZE_AFTER_MS after the connection is up.
 */
import { describe, expect, it } from 'vitest';
import { FULL_SIZE_AFTER_MS, START_PIXELS, startScale, startSmall, type StartSmallPeer } from '../src/media/startSmall.ts';

function fakePeer(width: number, height: number) {
  const encoding: RTCRtpEncodingParameters = {};
  const listeners: Array<() => void> = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const sender = {
    track: { kind: 'video', getSettings: () => ({ width, height }) } as unknown as MediaStreamTrack,
    getParameters: () => ({ encodings: [encoding] }) as unknown as RTCRtpSendParameters,
    setParameters: (p: RTCRtpSendParameters) => {
      Object.assign(encoding, p.encodings[0]);
      return Promise.resolve();
    },
  };
  const pc = {
    connectionState: 'new' as RTCPeerConnectionState,
    getSenders: () => [sender as unknown as RTCRtpSender],
    addEventListener: (_: string, l: () => void) => void listeners.push(l),
    removeEventListener: (_: string, l: () => void) => void listeners.splice(listeners.indexOf(l), 1),
  };
  const setState = (state: RTCPeerConnectionState) => {
    pc.connectionState = state;
    for (const l of [...listeners]) l();
  };
  return { pc: pc as unknown as StartSmallPeer, encoding, timers, setState, setTimer: (run: () => void, ms: number) => void timers.push({ run, ms }) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('startSmall', () => {
  it('when a 640×480 camera starts publishing, then it is sent at 320×240 until 2 s after its connection is up, then at full size', async () => {
    const { pc, encoding, timers, setState, setTimer } = fakePeer(640, 480);
    startSmall(pc, setTimer);
    await settle();
    expect(encoding.scaleResolutionDownBy).toBe(2);

    setState('connecting');
    expect(timers).toHaveLength(0);
    setState('connected');
    expect(timers.map((t) => t.ms)).toEqual([FULL_SIZE_AFTER_MS]);
    timers[0]!.run();
    await settle();
    expect(encoding.scaleResolutionDownBy).toBe(1);
  });

  it('when the camera is 320×240 or smaller, then nothing is changed', async () => {
    const { pc, encoding, setTimer } = fakePeer(320, 240);
    startSmall(pc, setTimer);
    await settle();
    expect(encoding.scaleResolutionDownBy).toBeUndefined();
  });

  it('when the scale brings any picture to the start size, then its pixels are at most START_PIXELS', () => {
    for (const [w, h] of [[1280, 720], [1440, 1080], [960, 720], [641, 480]] as const) {
      const s = startScale(w, h);
      expect((w / s) * (h / s)).toBeLessThanOrEqual(START_PIXELS + 1);
    }
  });
});
