/**
 * The network-quality indicator's measure: what the call's peer connections' statistics say
 * about the line, read from two getStats() reports a moment apart, and its class. Pure: the watcher
 * (mediaWatch.ts) polls, the apps show the class in words and bars (never colour alone).
 *
 * Thresholds follow Twilio's pre-call test: a good line has jitter < 30 ms and packet loss < 1 %; we add
 * a round-trip time < 300 ms (conversation still feels live) and, when we send video, a bandwidth
 * estimate of at least 300 kbit/s (the camera's lowest useful rate). "poor" begins where a call visibly
 * suffers: loss ≥ 5 %, jitter ≥ 100 ms, round-trip time ≥ 800 ms or under 100 kbit/s.
 *
 * Only what the network does counts. A busy machine (CPU) decodes late and drops frames, and its audio
 * arrival times wobble, which raises the measured jitter on a perfect line: so jitter counts only when
 * the line itself shows trouble too (loss, round trip or bandwidth past "good"); decode times and dropped
 * frames are never read.
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
  /** the congestion controller's estimate of what we can send, in kbit/s (connections sending video); null when none */
  availableKbps?: number | null;
}

export const UNKNOWN_QUALITY: NetworkQuality = { level: 'unknown', lossPercent: null, rttMs: null, jitterMs: null, availableKbps: null };

/** limits of a level: under each of loss, jitter and round trip, at or over the bandwidth */
export const GOOD = { lossPercent: 1, jitterMs: 30, rttMs: 300, availableKbps: 300 } as const;
export const FAIR = { lossPercent: 5, jitterMs: 100, rttMs: 800, availableKbps: 100 } as const;

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
  /** the smallest availableOutgoingBitrate (bit/s) of a connection that sends video, or null */
  outgoingBitrate?: number | null;
  /**
   * how long ago (ms, at the report's own time) the freshest inbound audio packet, and the freshest
   * packet of any kind, arrived: `lastPacketReceivedTimestamp` against the report's `timestamp`, one
   * clock. null when the browser does not say or nothing came yet.
   */
  audioAgeMs?: number | null;
  anyAgeMs?: number | null;
}

type Stat = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const maxOf = (a: number | null, b: unknown): number | null =>
  typeof b === 'number' && Number.isFinite(b) ? Math.max(a ?? 0, b) : a;
/** the age of a stream's last packet at its report's time, or null when either time is missing */
const ageOf = (s: Stat): number | null =>
  typeof s.lastPacketReceivedTimestamp === 'number' && typeof s.timestamp === 'number'
    ? Math.max(0, s.timestamp - s.lastPacketReceivedTimestamp)
    : null;
const minOf = (a: number | null, b: number | null): number | null => (b === null ? a : Math.min(a ?? Infinity, b));

/** Reads the counters out of getStats() reports (RTCStatsReport entries as plain objects). */
export function countersOf(reports: Iterable<Stat>[]): StatsCounters {
  const out: StatsCounters = { audioReceived: 0, videoReceived: 0, lost: 0, jitter: null, rtt: null, outgoingBitrate: null, audioAgeMs: null, anyAgeMs: null };
  for (const report of reports) {
    const byId = new Map<string, Stat>();
    for (const s of report) byId.set(String(s.id), s);
    // the estimate of a connection that only receives is its RTCP's, not a line's: only senders of video
    const sendsVideo = [...byId.values()].some((s) => s.type === 'outbound-rtp' && s.kind === 'video' && num(s.bytesSent) > 0);
    for (const s of byId.values()) {
      if (s.type === 'inbound-rtp') {
        if (s.kind === 'audio') out.audioReceived += num(s.packetsReceived);
        else if (s.kind === 'video') out.videoReceived += num(s.packetsReceived);
        out.lost += Math.max(0, num(s.packetsLost));
        const age = ageOf(s);
        out.anyAgeMs = minOf(out.anyAgeMs ?? null, age);
        if (s.kind === 'audio') out.audioAgeMs = minOf(out.audioAgeMs ?? null, age);
        // audio's: a video frame leaves in a burst of packets with one timestamp, so video's jitter
        // measures the encoder's pacing as much as the line (100–200 ms on a busy machine, any network)
        if (s.kind === 'audio') out.jitter = maxOf(out.jitter, s.jitter);
      } else if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') {
        const pair = byId.get(s.selectedCandidatePairId);
        out.rtt = maxOf(out.rtt, pair?.currentRoundTripTime);
        const bitrate = pair?.availableOutgoingBitrate;
        if (sendsVideo && typeof bitrate === 'number' && Number.isFinite(bitrate))
          out.outgoingBitrate = Math.min(out.outgoingBitrate ?? Infinity, bitrate);
      }
    }
  }
  return out;
}

/** The class of a line with these measures (a null measure does not count against it). */
export function classifyQuality(measures: Omit<NetworkQuality, 'level'>): NetworkQualityLevel {
  const { lossPercent, rttMs, jitterMs } = measures;
  const kbps = measures.availableKbps ?? null;
  if (lossPercent === null && rttMs === null && jitterMs === null && kbps === null) return 'unknown';
  const lineWithin = (limit: typeof GOOD | typeof FAIR) =>
    (lossPercent ?? 0) < limit.lossPercent && (rttMs ?? 0) < limit.rttMs && (kbps ?? Infinity) >= limit.availableKbps;
  // jitter alone is what a busy machine shows on a perfect line: it counts once the line shows trouble
  const lineClean = lineWithin(GOOD);
  const within = (limit: typeof GOOD | typeof FAIR) => lineWithin(limit) && (lineClean || (jitterMs ?? 0) < limit.jitterMs);
  if (within(GOOD)) return 'good';
  if (within(FAIR)) return 'fair';
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
    availableKbps: after.outgoingBitrate === null || after.outgoingBitrate === undefined ? null : Math.round(after.outgoingBitrate / 1000),
  };
  return { level: classifyQuality(measures), ...measures };
}
