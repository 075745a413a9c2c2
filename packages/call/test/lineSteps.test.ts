import { describe, expect, it } from 'vitest';
import { AUDIO_KBPS, AudioFirst, PROBE_MS, REDUCED_MAX_BPS, REDUCED_SHARE, REDUCED_START_BPS, applyStep } from '../src/media/audioFirst.ts';
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
    // the loss we receive carries the sender's losses: it does not count (our queue shows in the round trip)
    expect(gradeOf({ ...clean, at, receivedLossPercent: 30 })).toBe('good');
    expect(gradeOf({ ...clean, at, receivedLossPercent: 30, rttMs: 750, sentLossPercent: 3 })).toBe('weak');
    // a round trip with nothing lost is a busy machine's (recorded on loopback: 853 ms)
    expect(gradeOf({ ...clean, at, rttMs: 853 })).toBe('good');
    // a 300 kbit/s line cannot carry 640×480 beside the audio: it loses some of it
    expect(gradeOf({ ...clean, at, availableKbps: 300, sentLossPercent: 3 })).toBe('weak');
    expect(gradeOf({ ...clean, at, availableKbps: 90, sentLossPercent: 3 })).toBe('weak');
    expect(gradeOf({ ...clean, at, availableKbps: 50, sentLossPercent: 3 })).toBe('bad');
    // a low estimate with no loss is a busy machine's (its delay-based estimate falls on loopback)
    expect(gradeOf({ ...clean, at, availableKbps: 300 })).toBe('fair');
    // at audioOnly no video probes the line: its estimate does not hold the video back
    expect(gradeOf({ ...clean, at, availableKbps: 60 }, { ignoreRate: true })).toBe('good');
    // an estimate we do not use (we send under 65 % of it) is stale: it says no line is slow, nor fast
    expect(gradeOf({ ...clean, at, availableKbps: 90, sentKbps: 50, sentLossPercent: 3 })).toBe('fair');
    expect(gradeOf({ ...clean, at, availableKbps: 90, sentKbps: 85, sentLossPercent: 3 })).toBe('weak');
  });

  it('steps down to reduced on a 300 kbit/s line within two readings, and no further', () => {
    // recorded on the shaped stage: at full the line loses what it cannot carry, its estimate falls
    // from 1.5 Mbit/s to under 300 kbit/s; at reduced the small picture fits and nothing is lost
    const full = [{ availableKbps: 320, rttMs: 280, sentLossPercent: 6 }, { availableKbps: 185, rttMs: 377, sentLossPercent: 23.3, sentKbps: 258 }];
    const run = steps([{}, {}, ...full, ...times(10, { availableKbps: 280, rttMs: 30, sentKbps: 210 })]);
    expect(run.slice(0, 3)).toEqual(['full', 'full', 'full']);
    expect(run[3]).toBe('reduced');
    expect(new Set(run.slice(3))).toEqual(new Set(['reduced']));
  });

  it('does not count the rate while a new connection\'s estimate starts (it starts at 300 kbit/s)', () => {
    let state = initialLine();
    const slow = { ...clean, availableKbps: 300, sentLossPercent: 3 };
    for (let at = 0; at < START_RATE_GRACE_MS; at += 1000) state = nextLine(state, { ...slow, at });
    expect(state.step).toBe('full');
    state = nextLine(nextLine(state, { ...slow, at: START_RATE_GRACE_MS }), { ...slow, at: START_RATE_GRACE_MS + 1000 });
    expect(state.step).toBe('reduced');
  });

  it('does not count the rate after an ICE restart either: the new route\'s estimate starts again', () => {
    // recorded after a 20 s cut: the estimate came back at 137 kbit/s and grew; the small picture took
    // the others' video away from the guest for seconds
    const run = steps([...times(3, {}), { availableKbps: 137, sentKbps: 115, newRoute: true }, ...times(6, { availableKbps: 137, sentKbps: 115 }), ...times(4, {})]);
    expect(new Set(run)).toEqual(new Set(['full']));
  });

  it('a busy machine\'s loopback line, its estimate low with no loss, keeps the picture whole', () => {
    // recorded in a loopback journey on the shared machine (load 20): the round trip at 194 ms and the
    // delay-based estimate at 253 kbit/s while 609 were sent, nothing lost
    const busy = times(10, { rttMs: 194, availableKbps: 253, sentKbps: 609 });
    expect(new Set(steps(busy))).toEqual(new Set(['full']));
    // and its round trip at 853 ms, nothing lost
    expect(new Set(steps(times(10, { rttMs: 853, availableKbps: 612, sentKbps: 819 })))).toEqual(new Set(['full']));
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

  it('a line plainly bad for a while at audioOnly that reads clean again has recovered: the first wait, whatever a flap doubled', () => {
    // recorded on the shaped stage: a step up to reduced 5 s before a quarter of the guest's packets were
    // lost (a flap: the wait doubled), 15 s of that loss at audioOnly (Janus's reports every second or
    // two, no report in between), then the line clean again
    const lossy = Array.from({ length: 15 }, (_, i): Window => (i % 2 ? { sentLossPercent: null } : { sentLossPercent: 25 }));
    const run = steps([...times(2, { sentLossPercent: 30 }), ...times(5, {}), ...times(2, { sentLossPercent: 30 }), ...lossy, ...times(8, {})]);
    const recoveredAt = 2 + 5 + 2 + 15;
    expect(run[recoveredAt - 1]).toBe('audioOnly');
    expect(run.indexOf('reduced', recoveredAt) - recoveredAt).toBeLessThanOrEqual(UP_WAIT_MS / 1000);
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

  it('the loss of the sender\'s uplink, relayed to us, leaves our camera whole, even with a busy machine\'s round trip', () => {
    // recorded at the agent (a clean line) while the guest's uplink lost a quarter: the guest's media
    // reached it with gaps, and the shared machine's load took its round trip to 187 ms
    const relayed = times(12, { receivedLossPercent: 24, rttMs: 187, availableKbps: 1476, sentKbps: 512 });
    expect(new Set(steps([...times(3, { rttMs: 4 }), ...relayed]))).toEqual(new Set(['full']));
  });

  it('a downlink our queue fills steps the picture down by its round trip (and the others\' video stops, audioFirst.ts)', () => {
    // recorded at the guest on the 300 kbit/s line: the agent's video filled its downlink's queue
    const flooded = times(4, { receivedLossPercent: 31, sentLossPercent: 4, rttMs: 746, availableKbps: 172, sentKbps: 260 });
    const run = steps([...times(3, { rttMs: 9 }), ...flooded]);
    expect(run.at(-1)).toBe('reduced');
    expect(run.indexOf('reduced') - 3).toBeLessThanOrEqual(2);
  });

  it('at reduced, the estimate the pause left low (the small picture sends under it) does not pause it again', () => {
    // recorded on the 300 kbit/s line: after the step up from audioOnly the estimate stayed at 149 kbit/s
    // while the small picture and the audio sent 90: the picture went back to audioOnly on it, again and again
    const bad = times(3, { sentLossPercent: 20 });
    const back = [...times(6, { availableKbps: 174, sentKbps: 45 }), ...times(20, { availableKbps: 149, sentKbps: 90 })];
    const run = steps([...bad, ...back]);
    const up = run.indexOf('reduced', 3);
    expect(up).toBeGreaterThan(0);
    expect(new Set(run.slice(up))).toEqual(new Set(['reduced']));
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
    expect(cap).toBeGreaterThanOrEqual(REDUCED_START_BPS);
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

  it('the step up from audioOnly starts small and never takes more than the estimate leaves beside the audio', async () => {
    const { params, pc } = fakePublisher();
    const first = new AudioFirst({ publisher: () => pc, changed: () => undefined });
    // past the estimate's start (START_RATE_GRACE_MS)
    first.read({ ...clean, at: 0 });
    let at = START_RATE_GRACE_MS;
    const read = (w: Window) => first.read({ ...clean, ...w, at: (at += 1000) });
    read({ sentLossPercent: 20 });
    read({ sentLossPercent: 20 });
    // the 300 kbit/s line at audioOnly reads clean: the rules try the picture again
    while (first.step === 'audioOnly') read({ availableKbps: 280, sentKbps: 45 });
    await Promise.resolve();
    expect(params.video.encodings[0]!.maxBitrate).toBe(REDUCED_START_BPS);
    const caps: number[] = [];
    for (let i = 0; i < 20; i++) {
      // what it sends: the cap and the audio
      read({ availableKbps: 280, sentKbps: (caps.at(-1) ?? REDUCED_START_BPS) / 1000 + AUDIO_KBPS });
      await Promise.resolve();
      caps.push(params.video.encodings[0]!.maxBitrate!);
    }
    expect(first.step).toBe('reduced');
    // beside the probes (the cap open for one reading every PROBE_MS, so that the browser probes the line)
    const room = (280 * REDUCED_SHARE - AUDIO_KBPS) * 1000;
    const probes = caps.filter((c) => c === REDUCED_MAX_BPS).length;
    expect(probes).toBeGreaterThan(0);
    expect(probes).toBeLessThanOrEqual(caps.length / (PROBE_MS / 1000));
    expect(Math.max(...caps.filter((c) => c !== REDUCED_MAX_BPS))).toBeLessThanOrEqual(room);
    // and it grows up to that room
    expect(caps.filter((c) => c !== REDUCED_MAX_BPS).at(-1)).toBe(room);
    // the line recovered: a probe finds room, the estimate jumps, and the whole picture follows
    for (let i = 0; i < 8 && first.step === 'reduced'; i++) read({ availableKbps: 900, sentKbps: 300 });
    expect(first.step).toBe('full');
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
