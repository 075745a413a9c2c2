/**
 * The network-quality indicator's measure (media/networkQuality.ts) and the stats watch that feeds it
 * and notices a stall (media/mediaWatch.ts).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, settle } from './helpers/fakes.ts';
import { classifyQuality, countersOf, qualityBetween, type NetworkQuality } from '../src/media/networkQuality.ts';
import { POLL_MS, STALL_MS, watchMedia } from '../src/media/mediaWatch.ts';

const measures = (lossPercent: number | null, jitterMs: number | null, rttMs: number | null) => ({ lossPercent, jitterMs, rttMs });

describe('classifyQuality', () => {
  it('when loss < 1 %, jitter < 30 ms and round trip < 300 ms, then good', () => {
    expect(classifyQuality(measures(0.9, 29, 299))).toBe('good');
  });
  it('when loss reaches 1 %, round trip 300 ms or the bandwidth falls under 300 kbit/s, then fair (Twilio pre-call thresholds)', () => {
    expect(classifyQuality(measures(1, 5, 50))).toBe('fair');
    expect(classifyQuality(measures(0, 5, 300))).toBe('fair');
    expect(classifyQuality({ ...measures(0, 5, 50), availableKbps: 299 })).toBe('fair');
  });
  it('when loss reaches 5 %, round trip 800 ms or the bandwidth falls under 100 kbit/s, then poor', () => {
    expect(classifyQuality(measures(5, 5, 50))).toBe('poor');
    expect(classifyQuality(measures(0, 5, 800))).toBe('poor');
    expect(classifyQuality({ ...measures(0, 5, 50), availableKbps: 99 })).toBe('poor');
  });
  it('when jitter is high on a clean line (a busy machine), then it does not count; with trouble on the line it does', () => {
    expect(classifyQuality(measures(0, 150, 20))).toBe('good');
    expect(classifyQuality({ ...measures(0, 150, 20), availableKbps: 2500 })).toBe('good');
    expect(classifyQuality(measures(1.5, 40, 20))).toBe('fair');
    expect(classifyQuality(measures(1.5, 120, 20))).toBe('poor');
    expect(classifyQuality(measures(0, 120, 350))).toBe('poor');
  });
  it('when nothing is measured, then unknown; a missing measure does not count against the line', () => {
    expect(classifyQuality(measures(null, null, null))).toBe('unknown');
    expect(classifyQuality(measures(0, null, null))).toBe('good');
  });
});

describe('qualityBetween', () => {
  const report = (audio: number, video: number, lost: number, jitter: number, rtt: number) => [
    { id: 'a', type: 'inbound-rtp', kind: 'audio', packetsReceived: audio, packetsLost: lost, jitter },
    { id: 'v', type: 'inbound-rtp', kind: 'video', packetsReceived: video, packetsLost: 0, jitter: 0.5 },
    { id: 't', type: 'transport', selectedCandidatePairId: 'p' },
    { id: 'p', type: 'candidate-pair', currentRoundTripTime: rtt },
    { id: 'o', type: 'outbound-rtp', kind: 'audio', packetsSent: 999 },
  ];

  it('when 20 of 1000 packets of the window were lost, then 2 % loss, the audio jitter (not video\'s frame bursts) and the pair round trip: fair', () => {
    const before = countersOf([report(100, 400, 10, 0.01, 0.05)]);
    const after = countersOf([report(380, 1100, 30, 0.012, 0.08)]);
    expect(qualityBetween(before, after)).toEqual<NetworkQuality>({ level: 'fair', lossPercent: 2, jitterMs: 12, rttMs: 80, availableKbps: null });
  });

  it('when counters of several peer connections come, then they are summed', () => {
    const counters = countersOf([report(10, 20, 1, 0.001, 0.01), report(5, 5, 2, 0.04, 0.02)]);
    expect(counters).toEqual({ audioReceived: 15, videoReceived: 25, lost: 3, jitter: 0.04, rtt: 0.02, outgoingBitrate: null, audioAgeMs: null, anyAgeMs: null });
  });
});

describe('watchMedia', () => {
  function watched(expectsAudio = true, expectsMedia = expectsAudio) {
    const clock = new FakeClock();
    let packets = 0;
    let flowing = true;
    const pc = {
      getStats: () => {
        if (flowing) packets += 50;
        return Promise.resolve(new Map([['a', { id: 'a', type: 'inbound-rtp', kind: 'audio', packetsReceived: packets, packetsLost: 0, jitter: 0.002 }]]));
      },
    } as unknown as RTCPeerConnection;
    const stalls: boolean[] = [];
    const qualities: NetworkQuality[] = [];
    const stop = watchMedia({
      media: { peerConnections: () => ({ subscriber: pc }) },
      clock,
      current: () => true,
      expectsAudio: () => expectsAudio,
      expectsMedia: () => expectsMedia,
      quality: (q) => qualities.push(q),
      stalled: (s) => stalls.push(s),
    });
    const tick = async (n = 1) => {
      for (let i = 0; i < n; i++) {
        clock.advance(POLL_MS);
        await settle();
      }
    };
    return { tick, stalls, qualities, stop, cut: (v: boolean) => (flowing = !v) };
  }

  it('when the others\' audio stops for the stall time, then a stall is told and the quality is poor; when it flows again, the stall ends', async () => {
    const w = watched();
    await w.tick(3);
    expect(w.qualities.at(-1)?.level).toBe('good');
    w.cut(true);
    await w.tick(STALL_MS / POLL_MS - 1);
    expect(w.stalls).toEqual([]);
    await w.tick(2);
    expect(w.stalls).toEqual([true]);
    expect(w.qualities.at(-1)).toMatchObject({ level: 'poor', lossPercent: 100 });
    w.cut(false);
    await w.tick();
    expect(w.stalls).toEqual([true, false]);
    w.stop();
  });

  it('when every other participant muted its microphone, then silence is no stall', async () => {
    const w = watched(false);
    await w.tick(2);
    w.cut(true);
    await w.tick(10);
    expect(w.stalls).toEqual([]);
    w.stop();
  });

  it('when no packet of any kind arrives any more (the media server is down), then the line reads poor even when no audio is expected (the others\' cameras are on)', async () => {
    const w = watched(false, true);
    await w.tick(3);
    expect(w.qualities.at(-1)?.level).toBe('good');
    w.cut(true);
    await w.tick(3);
    expect(w.stalls).toEqual([true]);
    expect(w.qualities.at(-1)).toMatchObject({ level: 'poor', lossPercent: 100 });
    w.cut(false);
    await w.tick(2);
    expect(w.qualities.at(-1)?.level).toBe('good');
    w.stop();
  });

  it('when the browser says when the last packet came, then the stall is timed from that packet, not from the poll that last saw the counter grow', async () => {
    const clock = new FakeClock();
    let cutAt: number | null = null;
    let packets = 0;
    let lastAt = 0;
    const pc = {
      getStats: () => {
        const now = clock.now();
        // 50 packets a second until the cut; the last one came at the cut
        const until = cutAt === null ? now : Math.min(now, cutAt);
        if (until > lastAt) {
          packets += Math.ceil(((until - lastAt) / 1000) * 50);
          lastAt = until;
        }
        const audio = { id: 'a', type: 'inbound-rtp', kind: 'audio', packetsReceived: packets, packetsLost: 0, jitter: 0.002, timestamp: now, lastPacketReceivedTimestamp: lastAt };
        return Promise.resolve(new Map([['a', audio]]));
      },
    } as unknown as RTCPeerConnection;
    const stalls: Array<{ stalled: boolean; at: number }> = [];
    const stop = watchMedia({
      media: { peerConnections: () => ({ subscriber: pc }) },
      clock,
      current: () => true,
      expectsAudio: () => true,
      quality: () => undefined,
      stalled: (stalled) => stalls.push({ stalled, at: clock.now() }),
    });
    for (let i = 0; i < 3; i++) {
      clock.advance(POLL_MS);
      await settle();
    }
    // the cut just after a poll: the next poll still sees the counter grow (the packets before the cut)
    clock.advance(100);
    cutAt = clock.now();
    clock.advance(POLL_MS - 100);
    await settle();
    while (stalls.length === 0 && clock.now() - cutAt < 10_000) {
      clock.advance(POLL_MS);
      await settle();
    }
    expect(stalls).toHaveLength(1);
    // STALL_MS after the last packet plus at most one poll (counting from the poll added a second)
    expect(stalls[0]!.at - cutAt).toBeGreaterThanOrEqual(STALL_MS);
    expect(stalls[0]!.at - cutAt).toBeLessThanOrEqual(STALL_MS + POLL_MS);
    stop();
  });
});
