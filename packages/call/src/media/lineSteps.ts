/**
 * "Sound first, always" (docs/protocol.md "Line steps"): from successive readings of the call's own link,
 * the step our camera is sent at — `full`, `reduced` (a smaller, slower picture) or `audioOnly` (the
 * video sender paused, the microphone kept). Pure: the watcher (mediaWatch.ts) reads, audioFirst.ts
 * applies.
 *
 * Thresholds follow published practice: jitsi-meet's connection indicator steps at 2 %, 5 % and 15 %
 * packet loss; a line under about 400 kbit/s cannot carry 640×480 video beside Opus (a 300 kbit/s line
 * visibly cannot), and under 150 kbit/s even a 320×240 picture starves the audio. A step down is quick
 * (DOWN_READINGS readings in a row); a step up waits for `upWaitMs` of good readings, a wait that doubles
 * each time a step up is followed by a step down within FLAP_MS (no flapping), and comes back to
 * UP_WAIT_MS once a step up held.
 */

export type LineStep = 'full' | 'reduced' | 'audioOnly';

/** One window of the link's statistics (lineReading.ts reads it out of getStats()). */
export interface LineReading {
  /** the reading's time, ms */
  at: number;
  /** loss the far end reports of what we send, % (remote-inbound-rtp); null when not reported */
  sentLossPercent: number | null;
  /** loss of what we receive, % (inbound-rtp); null when nothing came */
  receivedLossPercent: number | null;
  /** round trip of the selected candidate pair, ms */
  rttMs: number | null;
  /** the congestion controller's estimate of what we can send (availableOutgoingBitrate), kbit/s */
  availableKbps: number | null;
  /** the video encoder says the bandwidth limits it (qualityLimitationReason) */
  bandwidthLimited: boolean;
  /** received video freezes in the window (inbound-rtp freezeCount) */
  freezes: number;
}

export type LineGrade = 'good' | 'fair' | 'weak' | 'bad';

export const LINE_LIMITS = {
  /** jitsi-meet's steps of packet loss, % */
  fairLossPercent: 2,
  weakLossPercent: 5,
  badLossPercent: 15,
  weakRttMs: 700,
  badRttMs: 1500,
  /** under it: no 640×480 beside audio */
  weakKbps: 400,
  /** under it: not even a small picture beside audio */
  badKbps: 150,
  /** at or over it: room for the full picture */
  goodKbps: 600,
} as const;

/** readings in a row at a worse grade before a step down */
export const DOWN_READINGS = 2;
/** the first wait of good readings before a step up, ms */
export const UP_WAIT_MS = 4000;
export const MAX_UP_WAIT_MS = 32_000;
/** a step down this soon after a step up was a flap: the next wait doubles */
export const FLAP_MS = 20_000;

/** how long the rate is not counted after the first reading (the estimate's start: startSmall.ts) */
export const START_RATE_GRACE_MS = 15_000;

/** The grade of one reading; `ignoreRate`: at `audioOnly` no video probes the line, its estimate says little. */
export function gradeOf(r: LineReading, ignoreRate = false): LineGrade {
  const L = LINE_LIMITS;
  const loss = Math.max(r.sentLossPercent ?? 0, r.receivedLossPercent ?? 0);
  const rtt = r.rttMs ?? 0;
  const kbps = ignoreRate ? null : r.availableKbps;
  if (loss >= L.badLossPercent || rtt >= L.badRttMs || (kbps !== null && kbps < L.badKbps)) return 'bad';
  if (
    loss >= L.weakLossPercent ||
    rtt >= L.weakRttMs ||
    (kbps !== null && kbps < L.weakKbps) ||
    // freezes count with loss only: a busy machine's decoder freezes on a perfect line (networkQuality.ts)
    (r.freezes >= 2 && loss >= L.fairLossPercent)
  )
    return 'weak';
  if (loss >= L.fairLossPercent || (kbps !== null && kbps < L.goodKbps)) return 'fair';
  return 'good';
}

export interface LineState {
  step: LineStep;
  /** readings in a row that asked for `reduced` or lower / for `audioOnly` */
  weakRun: number;
  badRun: number;
  /** since when the readings allow a step up (null: they do not) */
  upSince: number | null;
  upWaitMs: number;
  /** when the last step up was made (null: none since the last step down) */
  lastUpAt: number | null;
  /** the first reading's time (null: none yet) */
  firstAt?: number | null;
}

export function initialLine(): LineState {
  return { step: 'full', weakRun: 0, badRun: 0, upSince: null, upWaitMs: UP_WAIT_MS, lastUpAt: null };
}

const ORDER: LineStep[] = ['full', 'reduced', 'audioOnly'];
const lower = (a: LineStep, b: LineStep): boolean => ORDER.indexOf(a) > ORDER.indexOf(b);

/** The state after one more reading. */
export function nextLine(state: LineState, r: LineReading): LineState {
  const firstAt = state.firstAt ?? r.at;
  // a new connection's estimate starts at 300 kbit/s and grows: the rate says nothing in its first seconds
  const grade = gradeOf(r, state.step === 'audioOnly' || r.at - firstAt < START_RATE_GRACE_MS);
  const badRun = grade === 'bad' ? state.badRun + 1 : 0;
  const weakRun = grade === 'bad' || grade === 'weak' ? state.weakRun + 1 : 0;
  const wanted: LineStep | null = badRun >= DOWN_READINGS ? 'audioOnly' : weakRun >= DOWN_READINGS ? 'reduced' : null;
  if (wanted && lower(wanted, state.step)) {
    const flapped = state.lastUpAt !== null && r.at - state.lastUpAt < FLAP_MS;
    return {
      firstAt,
      step: wanted,
      weakRun: 0,
      badRun: 0,
      upSince: null,
      upWaitMs: flapped ? Math.min(state.upWaitMs * 2, MAX_UP_WAIT_MS) : state.upWaitMs,
      lastUpAt: null,
    };
  }
  // a step up that held this long was no flap: the next one waits the first wait again
  const held = state.lastUpAt !== null && r.at - state.lastUpAt >= FLAP_MS;
  const upWaitMs = held ? UP_WAIT_MS : state.upWaitMs;
  const lastUpAt = held ? null : state.lastUpAt;
  // audioOnly → reduced on a line that is no longer weak; reduced → full on a good one (its estimate room
  // for the full picture: the small picture's encoder takes whatever target it is given, so the estimate
  // grows with it on a line that has the room)
  const allowsUp = state.step === 'audioOnly' ? grade === 'good' || grade === 'fair' : state.step === 'reduced' && grade === 'good';
  if (!allowsUp) return { ...state, firstAt, weakRun, badRun, upSince: null, upWaitMs, lastUpAt };
  const upSince = state.upSince ?? r.at;
  if (r.at - upSince < upWaitMs) return { ...state, firstAt, weakRun, badRun, upSince, upWaitMs, lastUpAt };
  const step: LineStep = state.step === 'audioOnly' ? 'reduced' : 'full';
  return { firstAt, step, weakRun: 0, badRun: 0, upSince: null, upWaitMs, lastUpAt: r.at };
}
