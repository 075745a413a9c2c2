/**
 * A new publisher's first frames at about 320×240 (media/startSmall.ts): its video sender starts scaled
 * down so that the encoder drops none of its first frames at the start rate, and goes back to full size
 * in steps from FULL_SIZE_AFTER_MS after the connection is up, each when the send estimate carries it and
 * the CPU does not hold the encoder back.
 */
import { describe, expect, it } from 'vitest';
import {
  FULL_SIZE_AFTER_MS,
  START_PIXELS,
  STEP_EVERY_MS,
  startScale,
  startSmall,
  type StartSmallPeer,
} from '../src/media/startSmall.ts';

/** getStats() as Chromium gives it: the transport's selected pair with its estimate, the video sender's limit */
function statsReport(estimate?: number, limitedBy?: string): RTCStatsReport {
  const entries: Record<string, unknown>[] = [
    { id: 'T01', type: 'transport', selectedCandidatePairId: 'CP1' },
    { id: 'CP0', type: 'candidate-pair', nominated: false, state: 'failed', availableOutgoingBitrate: 9_000_000 },
    { id: 'CP1', type: 'candidate-pair', nominated: true, state: 'succeeded', ...(estimate !== undefined ? { availableOutgoingBitrate: estimate } : {}) },
    { id: 'OT1', type: 'outbound-rtp', kind: 'video', bytesSent: 1000, ...(limitedBy !== undefined ? { qualityLimitationReason: limitedBy } : {}) },
  ];
  return new Map(entries.map((e) => [e.id as string, e]));
}

const settle = () => new Promise((r) => setTimeout(r, 0));

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
  const line = { estimate: undefined as number | undefined, limitedBy: undefined as string | undefined, stats: true };
  const pc = {
    getStats: () => (line.stats ? Promise.resolve(statsReport(line.estimate, line.limitedBy)) : Promise.reject(new Error('closed'))),
    connectionState: 'new' as RTCPeerConnectionState,
    getSenders: () => [sender as unknown as RTCRtpSender],
    addEventListener: (_: string, l: () => void) => void listeners.push(l),
    removeEventListener: (_: string, l: () => void) => void listeners.splice(listeners.indexOf(l), 1),
  };
  const setState = (state: RTCPeerConnectionState) => {
    pc.connectionState = state;
    for (const l of [...listeners]) l();
  };
  /** runs the timer set last (a step up) and lets its stats and setParameters settle */
  const runNext = async () => {
    timers.at(-1)!.run();
    for (let i = 0; i < 5; i++) await settle();
  };
  return { pc: pc as unknown as StartSmallPeer, encoding, timers, line, setState, runNext, setTimer: (run: () => void, ms: number) => void timers.push({ run, ms }) };
}


describe('startSmall', () => {
  it('when a 640×480 camera starts publishing on a line that carries it, then it is sent at 320×240 until 2 s after its connection is up, then at full size', async () => {
    const { pc, encoding, timers, line, setState, runNext, setTimer } = fakePeer(640, 480);
    line.estimate = 1_000_000;
    startSmall(pc, setTimer);
    await settle();
    expect(encoding.scaleResolutionDownBy).toBe(2);

    setState('connecting');
    expect(timers).toHaveLength(0);
    setState('connected');
    expect(timers.map((t) => t.ms)).toEqual([FULL_SIZE_AFTER_MS]);
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(1);
    expect(timers, 'at full size: no more steps').toHaveLength(1);
  });

  it('when a 1440×1080 camera starts, then it goes up one doubling of its sides at a time, each a second after the one before', async () => {
    const { pc, encoding, timers, line, setState, runNext, setTimer } = fakePeer(1440, 1080);
    line.estimate = 3_000_000;
    startSmall(pc, setTimer);
    await settle();
    expect(encoding.scaleResolutionDownBy).toBe(4.5);
    setState('connected');
    await runNext();
    expect(encoding.scaleResolutionDownBy, '640×480').toBe(2.25);
    expect(timers.at(-1)!.ms).toBe(STEP_EVERY_MS);
    await runNext();
    // 2.25 / 2 is close enough to full size: the last step goes all the way
    expect(encoding.scaleResolutionDownBy, '1440×1080').toBe(1);
    expect(timers, 'at full size: no more steps').toHaveLength(2);
  });

  it('when the send estimate is still near its start, then the picture stays small, and steps up once the estimate carries the next size', async () => {
    const { pc, encoding, timers, line, setState, runNext, setTimer } = fakePeer(1440, 1080);
    line.estimate = 280_000;
    startSmall(pc, setTimer);
    setState('connected');
    await runNext();
    await runNext();
    expect(encoding.scaleResolutionDownBy, 'below 300 kbit/s: 320×240').toBe(4.5);
    expect(timers.at(-1)!.ms, 'it asks again').toBe(STEP_EVERY_MS);

    line.estimate = 400_000;
    await runNext();
    expect(encoding.scaleResolutionDownBy, '400 kbit/s carries 640×480').toBe(2.25);
    await runNext();
    expect(encoding.scaleResolutionDownBy, 'but not 1440×1080').toBe(2.25);

    line.estimate = 520_000;
    await runNext();
    expect(encoding.scaleResolutionDownBy, 'above 500 kbit/s: full size').toBe(1);
  });

  it('when the encoder is held back by the CPU, then the picture does not grow, whatever the estimate', async () => {
    const { pc, encoding, line, setState, runNext, setTimer } = fakePeer(1440, 1080);
    line.estimate = 5_000_000;
    line.limitedBy = 'cpu';
    startSmall(pc, setTimer);
    setState('connected');
    await runNext();
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(4.5);
    line.limitedBy = 'none';
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(2.25);
  });

  it('when the browser gives no estimate, then each step is taken as it comes', async () => {
    const { pc, encoding, line, setState, runNext, setTimer } = fakePeer(640, 480);
    line.estimate = undefined;
    startSmall(pc, setTimer);
    setState('connected');
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(1);
  });

  it('when someone else changed the scale (the line steps), then the way up stops there', async () => {
    const { pc, encoding, timers, line, setState, runNext, setTimer } = fakePeer(1440, 1080);
    line.estimate = 3_000_000;
    startSmall(pc, setTimer);
    await settle();
    setState('connected');
    encoding.scaleResolutionDownBy = 6;
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(6);
    expect(timers).toHaveLength(1);
  });

  it('when the connection has closed before a step, then nothing is changed and no step follows', async () => {
    const { pc, encoding, timers, line, setState, runNext, setTimer } = fakePeer(1440, 1080);
    line.estimate = 3_000_000;
    startSmall(pc, setTimer);
    setState('connected');
    setState('closed');
    line.stats = false;
    await runNext();
    expect(encoding.scaleResolutionDownBy).toBe(4.5);
    expect(timers).toHaveLength(1);
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
