/**
 * The line steps' reading (lineSteps.ts) out of two getStats() polls of the call's peer connections:
 * what the far end says of what we send (remote-inbound-rtp: packets lost against our outbound-rtp's
 * packets sent, in the window), the loss and freezes of what we receive, the round trip and the
 * congestion controller's estimate (networkQuality.ts reads those), and whether the bandwidth limits our
 * video encoder (qualityLimitationReason).
 */
import type { LineReading } from './lineSteps.ts';
import { qualityBetween, type StatsCounters } from './networkQuality.ts';

/** What the line steps read beyond the quality's counters, summed over the connections. */
export interface LineCounters {
  /** RTP packets we sent (outbound-rtp), and those the far end reports lost (remote-inbound-rtp) */
  sent: number;
  sentLost: number;
  /** received video freezes (inbound-rtp freezeCount) */
  freezes: number;
  /** a video sender's encoder is limited by the bandwidth now */
  bandwidthLimited: boolean;
}

type Stat = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function lineCountersOf(reports: Iterable<Stat>[]): LineCounters {
  const out: LineCounters = { sent: 0, sentLost: 0, freezes: 0, bandwidthLimited: false };
  for (const report of reports) {
    for (const s of report) {
      if (s.type === 'outbound-rtp') {
        out.sent += num(s.packetsSent);
        if (s.kind === 'video' && s.qualityLimitationReason === 'bandwidth') out.bandwidthLimited = true;
      } else if (s.type === 'remote-inbound-rtp') out.sentLost += Math.max(0, num(s.packetsLost));
      else if (s.type === 'inbound-rtp' && s.kind === 'video') out.freezes += num(s.freezeCount);
    }
  }
  return out;
}

/** The reading of the window between two polls, at `at` (ms). */
export function lineReadingBetween(
  before: { stats: StatsCounters; line: LineCounters },
  after: { stats: StatsCounters; line: LineCounters },
  at: number,
): LineReading {
  const quality = qualityBetween(before.stats, after.stats);
  const sent = Math.max(0, after.line.sent - before.line.sent);
  const lost = Math.max(0, after.line.sentLost - before.line.sentLost);
  return {
    at,
    // the far end's reports come a few times a second: a window without any says nothing
    sentLossPercent: sent > 0 ? Math.round((Math.min(lost, sent) / (sent + lost)) * 1000) / 10 : null,
    receivedLossPercent: quality.lossPercent,
    rttMs: quality.rttMs,
    availableKbps: quality.availableKbps ?? null,
    bandwidthLimited: after.line.bandwidthLimited,
    freezes: Math.max(0, after.line.freezes - before.line.freezes),
  };
}
