/**
 * The network-quality indicator's measure: what the call's peer connections' statistics say
 * about the line, read from two getStats() reports a moment apart, and its class. Pure: the watcher
 * (mediaWatch.ts) polls, the apps show the class in words and bars (never colour alone).
 *
 * Thresholds follow Twilio's pre-call test: a good line has jitter < 30 ms and packet loss < 1 %; we add
 * a round-trip time < 300 ms (conversation still feels live). "poor" begins where a call visibly
 * suffers: loss ≥ 5 %, jitter ≥ 100 ms or round-trip time ≥ 800 ms.
 */

export type NetworkQualityLevel = 'good' | 'fair' | 'poor' | 'unknown';

export interface NetworkQuality {
  level: NetworkQualityLevel;
  /** packets lost of those expected in the window, in % (inbound streams); null when nothing came */
  lossPercent: number | null;
  /** round-trip time to the media server in ms (the selected candidate pair); null when not measured */
  rttMs: number | null;
  /** the worst inbound audio jitter in ms; null when not measured */
  jitterMs: number | null;
}

export const UNKNOWN_QUALITY: NetworkQuality = { level: 'unknown', lossPercent: null, rttMs: null, jitterMs: null };

export const GOOD = { lossPercent: 1, jitterMs: 30, rttMs: 300 } as const;
export const FAIR = { lossPercent: 5, jitterMs: 100, rttMs: 800 } as const;

/** The counters of one poll, summed over every peer connection of the call. */
export interface StatsCounters {
  /** inbound RTP packets received, per kind */
  audioReceived: number;
  videoReceived: number;
  /** inbound RTP packets lost (all kinds) */
  lost: number;
  /** the largest inbound audio jitter in seconds, or null */
  jitter: number | null;
  /** the largest current round-trip time of a selected candidate pair in seconds, or null */
  rtt: number | null;
}

type Stat = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const maxOf = (a: number | null, b: unknown): number | null =>
  typeof b === 'number' && Number.isFinite(b) ? Math.max(a ?? 0, b) : a;

/** Reads the counters out of getStats() reports (RTCStatsReport entries as plain objects). */
export function countersOf(reports: Iterable<Stat>[]): StatsCounters {
  const out: StatsCounters = { audioReceived: 0, videoReceived: 0, lost: 0, jitter: null, rtt: null };
  for (const report of reports) {
    const byId = new Map<string, Stat>();
    for (const s of report) byId.set(String(s.id), s);
    for (const s of byId.values()) {
      if (s.type === 'inbound-rtp') {
        if (s.kind === 'audio') out.audioReceived += num(s.packetsReceived);
        else if (s.kind === 'video') out.videoReceived += num(s.packetsReceived);
        out.lost += Math.max(0, num(s.packetsLost));
        // audio's: a video frame leaves in a burst of packets with one timestamp, so video's jitter
        // measures the encoder's pacing as much as the line (100–200 ms on a busy machine, any network)
        if (s.kind === 'audio') out.jitter = maxOf(out.jitter, s.jitter);
      } else if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') {
        out.rtt = maxOf(out.rtt, byId.get(s.selectedCandidatePairId)?.currentRoundTripTime);
      }
    }
  }
  return out;
}

/** The class of a line with these measures (a null measure does not count against it). */
export function classifyQuality(measures: Omit<NetworkQuality, 'level'>): NetworkQualityLevel {
  const { lossPercent, rttMs, jitterMs } = measures;
  if (lossPercent === null && rttMs === null && jitterMs === null) return 'unknown';
  const under = (limit: { lossPercent: number; jitterMs: number; rttMs: number }) =>
    (lossPercent ?? 0) < limit.lossPercent && (jitterMs ?? 0) < limit.jitterMs && (rttMs ?? 0) < limit.rttMs;
  if (under(GOOD)) return 'good';
  if (under(FAIR)) return 'fair';
  return 'poor';
}

/** The quality of the window between two polls. */
export function qualityBetween(before: StatsCounters, after: StatsCounters): NetworkQuality {
  const received = after.audioReceived + after.videoReceived - (before.audioReceived + before.videoReceived);
  const lost = Math.max(0, after.lost - before.lost);
  const expected = received + lost;
  const measures = {
    lossPercent: expected > 0 ? Math.round((lost / expected) * 1000) / 10 : null,
    rttMs: after.rtt === null ? null : Math.round(after.rtt * 1000),
    jitterMs: after.jitter === null ? null : Math.round(after.jitter * 1000),
  };
  return { level: classifyQuality(measures), ...measures };
}
