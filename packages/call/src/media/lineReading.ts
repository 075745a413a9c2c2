/**
 * The line steps' reading (lineSteps.ts) out of two getStats() polls of the call's peer connections:
 * what the far end says of what we send (remote-inbound-rtp: packets lost against our outbound-rtp's
 * packets sent, in the window), the loss and freezes of what we receive, the round trip and the
 * congestion controller's estimate (networkQuality.ts reads those), what we sent beside it, and whether
 * the bandwidth limits our video encoder (qualityLimitationReason).
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
  /**
   * the far end's receiver reports of what we send, by stream (remote-inbound-rtp): how many came
   * (reportsReceived; null: the browser does not say) and the loss the latest one gives for its own interval
   */
  reports: Record<string, { count: number | null; fractionLost: number | null }>;
  /** the selected candidate pairs of the connections, joined: a new one is a new route (an ICE restart) */
  route: string;
  /** bytes of RTP we sent (outbound-rtp, headers included), and when the browser counted them (ms; null: nothing sent) */
  sentBytes: number;
  at: number | null;
}

type Stat = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function lineCountersOf(reports: Iterable<Stat>[]): LineCounters {
  const out: LineCounters = { sent: 0, sentLost: 0, freezes: 0, bandwidthLimited: false, reports: {}, route: '', sentBytes: 0, at: null };
  const pairs: string[] = [];
  for (const report of reports) {
    for (const s of report) {
      if (s.type === 'outbound-rtp') {
        out.sent += num(s.packetsSent);
        out.sentBytes += num(s.bytesSent) + num(s.headerBytesSent);
        if (typeof s.timestamp === 'number') out.at = Math.max(out.at ?? 0, s.timestamp);
        if (s.kind === 'video' && s.qualityLimitationReason === 'bandwidth') out.bandwidthLimited = true;
      } else if (s.type === 'remote-inbound-rtp') {
        out.sentLost += Math.max(0, num(s.packetsLost));
        out.reports[String(s.id)] = {
          count: typeof s.reportsReceived === 'number' ? s.reportsReceived : null,
          fractionLost: typeof s.fractionLost === 'number' ? s.fractionLost : null,
        };
      }
      else if (s.type === 'inbound-rtp' && s.kind === 'video') out.freezes += num(s.freezeCount);
      else if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') pairs.push(s.selectedCandidatePairId);
    }
  }
  out.route = pairs.sort().join(' ');
  return out;
}

/**
 * The loss the far end's receiver reports that came in the window give for their own intervals, the
 * worst of them, %; null when none came (the window says nothing of it: Janus reports every few seconds,
 * so the loss counted against the packets of a second would read 0 in one window and double in the
 * next). undefined when the browser does not count the reports: the packets lost in the window then.
 */
function freshLoss(before: LineCounters, after: LineCounters): number | null | undefined {
  const streams = Object.entries(after.reports);
  if (!streams.length || streams.some(([, r]) => r.count === null || r.fractionLost === null)) return undefined;
  const fresh = streams.filter(([id, r]) => (r.count ?? 0) > (before.reports[id]?.count ?? 0));
  if (!fresh.length) return null;
  return Math.round(Math.max(...fresh.map(([, r]) => r.fractionLost ?? 0)) * 1000) / 10;
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
  const ms = after.line.at !== null && before.line.at !== null ? after.line.at - before.line.at : 0;
  return {
    at,
    sentLossPercent: freshLoss(before.line, after.line) ?? (sent > 0 ? Math.round((Math.min(lost, sent) / (sent + lost)) * 1000) / 10 : null),
    receivedLossPercent: quality.lossPercent,
    rttMs: quality.rttMs,
    availableKbps: quality.availableKbps ?? null,
    sentKbps: ms > 0 ? Math.round((Math.max(0, after.line.sentBytes - before.line.sentBytes) * 8) / ms) : null,
    bandwidthLimited: after.line.bandwidthLimited,
    newRoute: before.line.route !== '' && after.line.route !== '' && before.line.route !== after.line.route,
    freezes: Math.max(0, after.line.freezes - before.line.freezes),
  };
}
