import { describe, expect, it } from 'vitest';
import { AudioFirst, applyStep } from '../src/media/audioFirst.ts';
import { lineCountersOf, lineReadingBetween } from '../src/media/lineReading.ts';
import { FLAP_MS, START_RATE_GRACE_MS, UP_WAIT_MS, gradeOf, initialLine, nextLine, type LineReading, type LineStep } from '../src/media/lineSteps.ts';
import { countersOf } from '../src/media/networkQuality.ts';

/** a reading a second apart: a clean line unless told */
const clean = { sentLossPercent: 0, receivedLossPercent: 0, rttMs: 40, availableKbps: 1500, bandwidthLimited: false, freezes: 0 };
type Window = Partial<Omit<LineReading, 'at'>>;

/** The steps through `windows` (one a second), recorded after each. */
function steps(windows: Window[]): LineStep[] {
  let state = initialLine();
  // the first reading, then these past the start's grace (START_RATE_GRACE_MS)
  state = nextLine(state, { ...clean, at: 0 });
  return windows.map((w, i) => (state = nextLine(state, { ...clean, ...w, at: START_RATE_GRACE_MS + i * 1000 })).step);
}
const times = (n: number, w: Window): Window[] => Array.from({ length: n }, () => w);

describe('line steps (docs/protocol.md "Line steps")', () => {
  it('grades a reading at jitsi-meet\'s loss steps and by the rate a picture needs', () => {
    const at = 0;
    expect(gradeOf({ ...clean, at })).toBe('good');
    expect(gradeOf({ ...clean, at, sentLossPercent: 2 })).toBe('fair');
    expect(gradeOf({ ...clean, at, sentLossPercent: 5 })).toBe('weak');
    expect(gradeOf({ ...clean, at, receivedLossPercent: 15 })).toBe('bad');
    // a 300 kbit/s line cannot carry 640×480 beside the audio
    expect(gradeOf({ ...clean, at, availableKbps: 300 })).toBe('weak');
    expect(gradeOf({ ...clean, at, availableKbps: 120 })).toBe('bad');
    // at audioOnly no video probes the line: its estimate does not hold the video back
    expect(gradeOf({ ...clean, at, availableKbps: 60 }, true)).toBe('good');
  });

  it('steps down to reduced on a 300 kbit/s line within two readings, and no further', () => {
    // recorded on the shaped stage: the estimate falls from 1.5 Mbit/s to under 300 kbit/s
    const run = steps([{}, {}, { availableKbps: 320, rttMs: 280 }, { availableKbps: 290, rttMs: 310 }, ...times(10, { availableKbps: 280, rttMs: 300, bandwidthLimited: true })]);
    expect(run.slice(0, 3)).toEqual(['full', 'full', 'full']);
    expect(run[3]).toBe('reduced');
    expect(new Set(run.slice(3))).toEqual(new Set(['reduced']));
  });

  it('does not count the rate while a new connection\'s estimate starts (it starts at 300 kbit/s)', () => {
    let state = initialLine();
    for (let at = 0; at < START_RATE_GRACE_MS; at += 1000) state = nextLine(state, { ...clean, availableKbps: 300, at });
    expect(state.step).toBe('full');
    state = nextLine(nextLine(state, { ...clean, availableKbps: 300, at: START_RATE_GRACE_MS }), { ...clean, availableKbps: 300, at: START_RATE_GRACE_MS + 1000 });
    expect(state.step).toBe('reduced');
  });

  it('steps down straight to audioOnly on 15 % loss, quickly, and never on a single bad reading', () => {
    expect(steps([{ sentLossPercent: 30 }, {}, {}])).toEqual(['full', 'full', 'full']);
    const run = steps([{}, { sentLossPercent: 16 }, { sentLossPercent: 18, receivedLossPercent: 20 }, ...times(5, { sentLossPercent: 15 })]);
    expect(run[2]).toBe('audioOnly');
  });

  it('5 % loss makes it reduced, then 15 % audioOnly', () => {
    const run = steps([...times(4, { sentLossPercent: 5.5 }), ...times(4, { sentLossPercent: 16 })]);
    expect(run[1]).toBe('reduced');
    expect(run[5]).toBe('audioOnly');
  });

  it('steps back up after UP_WAIT_MS of good readings: audioOnly → reduced → full', () => {
    const bad = times(3, { sentLossPercent: 20 });
    // while the video is paused, the estimate is the audio's alone: it does not hold the step up
    // then, the video back small, the estimate grows with it
    const recovered = [...times(5, { availableKbps: 90 }), ...times(8, { availableKbps: 700 })];
    const run = steps([...bad, ...recovered]);
    const back = run.indexOf('reduced', 3);
    expect(back).toBeGreaterThan(2);
    expect((back - 3) * 1000).toBeLessThanOrEqual(UP_WAIT_MS + 1000);
    // at reduced the estimate must have room for the full picture
    const limited = steps([...bad, ...times(12, { availableKbps: 280 })]);
    expect(limited.at(-1)).toBe('reduced');
    expect(run.at(-1)).toBe('full');
    const full = steps([...bad, ...times(6, {}), ...times(6, {})]);
    expect(full.at(-1)).toBe('full');
  });

  it('does not flap on a line that is weak every few seconds: each step up waits twice as long', () => {
    // 3 s of 20 % loss, 6 s clean, again and again for a minute
    const cycle = [...times(3, { sentLossPercent: 20 }), ...times(6, {})];
    const run = steps(Array.from({ length: 7 }, () => cycle).flat());
    let changes = 0;
    for (let i = 1; i < run.length; i++) if (run[i] !== run[i - 1]) changes++;
    // without the doubling: a step up and a step down each cycle (14 changes and more)
    expect(changes).toBeLessThanOrEqual(6);
  });

  it('a step up that held FLAP_MS waits the first wait again next time', () => {
    let state = initialLine();
    let at = 0;
    const feed = (w: Window, n: number) => {
      for (let i = 0; i < n; i++) state = nextLine(state, { ...clean, ...w, at: (at += 1000) });
    };
    feed({ sentLossPercent: 20 }, 2);
    feed({}, 5);
    expect(state.step).toBe('reduced');
    feed({ sentLossPercent: 20 }, 2); // a flap: the wait doubles
    expect(state.upWaitMs).toBe(UP_WAIT_MS * 2);
    // up twice (each after the doubled wait), then the last step up holds FLAP_MS
    feed({}, 2 * (UP_WAIT_MS * 2) / 1000 + FLAP_MS / 1000 + 2);
    expect(state.step).toBe('full');
    expect(state.upWaitMs).toBe(UP_WAIT_MS);
  });
});

describe('the line reading out of getStats()', () => {
  it('reads the far end\'s loss of what we send, the rate and the encoder\'s limit between two polls', () => {
    const poll = (sent: number, lost: number, received: number, at: number) => [
      [
        { id: 'o', type: 'outbound-rtp', kind: 'video', packetsSent: sent, bytesSent: 1, qualityLimitationReason: 'bandwidth' },
        { id: 'r', type: 'remote-inbound-rtp', kind: 'video', packetsLost: lost },
        { id: 't', type: 'transport', selectedCandidatePairId: 'p' },
        { id: 'p', type: 'candidate-pair', currentRoundTripTime: 0.3, availableOutgoingBitrate: 280_000 },
        { id: 'i', type: 'inbound-rtp', kind: 'audio', packetsReceived: received, packetsLost: 0, timestamp: at, lastPacketReceivedTimestamp: at },
      ],
    ];
    const a = poll(1000, 10, 500, 0);
    const b = poll(1100, 20, 550, 1000);
    const reading = lineReadingBetween({ stats: countersOf(a), line: lineCountersOf(a) }, { stats: countersOf(b), line: lineCountersOf(b) }, 1000);
    expect(reading).toMatchObject({ sentLossPercent: 9.1, receivedLossPercent: 0, rttMs: 300, availableKbps: 280, bandwidthLimited: true });
  });
});

/** A publisher connection of fakes: its audio and video senders' parameters. */
function fakePublisher() {
  const params = { audio: { encodings: [{}] as RTCRtpEncodingParameters[] }, video: { encodings: [{ active: true }] as RTCRtpEncodingParameters[] } };
  const sender = (kind: 'audio' | 'video') => ({
    track: { kind, getSettings: () => ({ width: 640, height: 480 }) },
    getParameters: () => structuredClone(params[kind]),
    setParameters: (p: { encodings: RTCRtpEncodingParameters[] }) => Promise.resolve(void (params[kind] = p)),
  });
  const transceivers = (['audio', 'video'] as const).map((kind) => ({ receiver: { track: { kind } }, direction: 'sendonly', sender: sender(kind) }));
  return { params, pc: { getTransceivers: () => transceivers } as unknown as RTCPeerConnection };
}

describe('audio first on the publisher (media/audioFirst.ts)', () => {
  it('pauses the video, keeps the audio at high priority, stops the others\' video to us, and comes back', async () => {
    const { params, pc } = fakePublisher();
    const told: LineStep[] = [];
    const receiving: boolean[] = [];
    const first = new AudioFirst({ publisher: () => pc, receiveVideo: (on) => Promise.resolve(void receiving.push(on)), changed: (s) => told.push(s) });
    let at = 0;
    const read = (w: Window) => first.read({ ...clean, ...w, at: (at += 1000) });
    read({ sentLossPercent: 20 });
    read({ sentLossPercent: 20 });
    await Promise.resolve();
    expect(told).toEqual(['audioOnly']);
    expect(params.video.encodings[0]!.active).toBe(false);
    expect(params.audio.encodings[0]).toMatchObject({ priority: 'high', networkPriority: 'high' });
    expect(receiving).toEqual([false]);
    for (let i = 0; i < 6; i++) read({});
    await Promise.resolve();
    expect(told).toEqual(['audioOnly', 'reduced']);
    expect(params.video.encodings[0]).toMatchObject({ active: true, scaleResolutionDownBy: 2, maxFramerate: 15 });
    // the cap starts low and grows by a quarter a reading while the line stays clean
    const cap = params.video.encodings[0]!.maxBitrate!;
    expect(cap).toBeGreaterThanOrEqual(100_000);
    read({});
    await Promise.resolve();
    expect(params.video.encodings[0]!.maxBitrate).toBe(Math.round(cap * 1.25));
    // the others' video comes back only with the full step
    expect(receiving).toEqual([false]);
    for (let i = 0; i < 6; i++) read({ bandwidthLimited: true });
    expect(told.at(-1)).toBe('full');
    await Promise.resolve();
    expect(params.video.encodings[0]!.maxBitrate).toBeUndefined();
    expect(receiving).toEqual([false, true]);
  });

  it('a camera turned on by hand overrides the pause until the line steps again', async () => {
    const { params, pc } = fakePublisher();
    const told: LineStep[] = [];
    const first = new AudioFirst({ publisher: () => pc, changed: (s) => told.push(s) });
    let at = 0;
    const read = (w: Window) => first.read({ ...clean, ...w, at: (at += 1000) });
    read({ sentLossPercent: 20 });
    read({ sentLossPercent: 20 });
    first.manual();
    await Promise.resolve();
    expect(first.applied).toBe('full');
    expect(params.video.encodings[0]!.active).toBe(true);
    // still bad: the person's choice holds
    read({ sentLossPercent: 20 });
    expect(first.applied).toBe('full');
    // the line steps (up to reduced, then down again): the rules decide again
    for (let i = 0; i < 6; i++) read({});
    expect(first.step).toBe('reduced');
    read({ sentLossPercent: 20 });
    read({ sentLossPercent: 20 });
    await Promise.resolve();
    expect(first.applied).toBe('audioOnly');
    expect(told).toEqual(['audioOnly', 'full', 'reduced', 'audioOnly']);
  });

  it('applyStep: full takes the size and frame rate limits off', async () => {
    const { params, pc } = fakePublisher();
    const video = pc.getTransceivers()[1]!.sender;
    await applyStep(video, 'reduced', { width: 1280, height: 720 });
    expect(params.video.encodings[0]!.scaleResolutionDownBy).toBeCloseTo(Math.sqrt((1280 * 720) / (320 * 240)));
    await applyStep(video, 'full');
    expect(params.video.encodings[0]).toEqual({ active: true, scaleResolutionDownBy: 1 });
  });
});
