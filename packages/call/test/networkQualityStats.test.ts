/**
 * The indicator's rule (media/networkQuality.ts) on whole getStats() reports of a call's connections, as
 * Chromium gives them (the fields it fills for a publisher and a subscriber to Janus): a busy machine on a
 * clean line (decoding late, frames dropped, audio jitter up) reads good; a congested line reads poor.
 */
import { describe, expect, it } from 'vitest';
import { countersOf, qualityBetween } from '../src/media/networkQuality.ts';

interface Moment {
  audioIn: number;
  videoIn: number;
  lost: number;
  jitter: number;
  rtt: number;
  availableOutgoingBitrate: number;
  framesDropped: number;
  totalDecodeTime: number;
}

/** The publisher's and the subscriber's reports at one moment. */
function reports(m: Moment): Record<string, unknown>[][] {
  const publisher = [
    { id: 'OT01V', type: 'outbound-rtp', kind: 'video', bytesSent: 1_200_000, packetsSent: 1400, framesEncoded: 900 },
    { id: 'OT01A', type: 'outbound-rtp', kind: 'audio', bytesSent: 80_000, packetsSent: 1500 },
    { id: 'T01', type: 'transport', selectedCandidatePairId: 'CP1' },
    { id: 'CP1', type: 'candidate-pair', state: 'succeeded', currentRoundTripTime: m.rtt, availableOutgoingBitrate: m.availableOutgoingBitrate },
  ];
  const subscriber = [
    { id: 'IT01A', type: 'inbound-rtp', kind: 'audio', packetsReceived: m.audioIn, packetsLost: m.lost, jitter: m.jitter },
    {
      id: 'IT01V',
      type: 'inbound-rtp',
      kind: 'video',
      packetsReceived: m.videoIn,
      packetsLost: 0,
      jitter: 0.09,
      framesDropped: m.framesDropped,
      totalDecodeTime: m.totalDecodeTime,
    },
    { id: 'T02', type: 'transport', selectedCandidatePairId: 'CP2' },
    // a connection that only receives: its estimate is its RTCP's, never the line's
    { id: 'CP2', type: 'candidate-pair', state: 'succeeded', currentRoundTripTime: m.rtt, availableOutgoingBitrate: 30_000 },
  ];
  return [publisher, subscriber];
}

const window = (before: Moment, after: Moment) => qualityBetween(countersOf(reports(before)), countersOf(reports(after)));

describe('the network-quality rule on a call\'s stats', () => {
  it('when the machine is busy (decode time up, frames dropped, audio jitter 60–140 ms) on a clean line, then good', () => {
    const start: Moment = { audioIn: 1000, videoIn: 3000, lost: 0, jitter: 0.004, rtt: 0.003, availableOutgoingBitrate: 2_400_000, framesDropped: 0, totalDecodeTime: 4 };
    for (const jitter of [0.06, 0.09, 0.14]) {
      const busy: Moment = { ...start, audioIn: 1050, videoIn: 3090, jitter, framesDropped: 40, totalDecodeTime: 9 };
      expect(window(start, busy)).toMatchObject({ level: 'good', lossPercent: 0, availableKbps: 2400 });
    }
  });

  it('when the line loses 6 % of packets and its estimate falls to 250 kbit/s, then poor, with the jitter it brings', () => {
    const start: Moment = { audioIn: 1000, videoIn: 3000, lost: 0, jitter: 0.01, rtt: 0.08, availableOutgoingBitrate: 1_500_000, framesDropped: 0, totalDecodeTime: 4 };
    const congested: Moment = { ...start, audioIn: 1047, videoIn: 3100, lost: 10, jitter: 0.06, rtt: 0.35, availableOutgoingBitrate: 250_000 };
    expect(window(start, congested)).toMatchObject({ level: 'poor', lossPercent: 6.4, rttMs: 350, availableKbps: 250 });
  });

  it('when only the estimate falls (a shaped 300 kbit/s line: no loss yet), then fair', () => {
    const start: Moment = { audioIn: 1000, videoIn: 3000, lost: 0, jitter: 0.005, rtt: 0.02, availableOutgoingBitrate: 1_000_000, framesDropped: 0, totalDecodeTime: 4 };
    const shaped: Moment = { ...start, audioIn: 1050, videoIn: 3030, availableOutgoingBitrate: 180_000 };
    expect(window(start, shaped)).toMatchObject({ level: 'fair', availableKbps: 180 });
  });
});
