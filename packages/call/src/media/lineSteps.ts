/**
 * "Sound first, always" (docs/protocol.md "Line steps"): from successive readings of the call's own link,
 * the step our camera is sent at — `full`, `reduced` (a smaller, slower picture) or `audioOnly` (the
 * video sender paused, the microphone kept). Pure: the watcher (mediaWatch.ts) reads, audioFirst.ts
 * applies.
 *
 * Thresholds follow published practice: jitsi-meet's connection indicator steps at 2 %, 5 % and 15 %
 * packet loss; a line under about 400 kbit/s cannot carry 640×480 video beside Opus (a 300 kbit/s line
 * visibly cannot), and under 60 kbit/s hardly the audio does (`reduced`'s picture fits whatever the
 * estimate above it: audioFirst.ts caps it at a share of the estimate less the audio's). A step down is quick
 * (DOWN_READINGS readings in a row); a step up waits for `upWaitMs` of good readings, a wait that doubles
 * each time a step up is followed by a step down within FLAP_MS (no flapping), and comes back to
 * UP_WAIT_MS once a step up held.
 *
 * Our step is about what we send, so it reads our uplink: the loss the far end reports of what we send,
 * the round trip and the estimate. The loss of what we receive is not ours alone: through the media
 * server it carries the sender's uplink losses too (Janus forwards a publisher's gaps), and a busy
 * machine's round trip rises on a clean line, so no round trip tells them apart: a guest's lossy uplink
 * must not pause the agent's camera. jitsi-meet's connection quality counts the upload's loss for the
 * same reason. (A downlink our queue fills shows in the round trip; audioFirst.ts stops the others'
 * video to us from the first step down.)
 */

export type LineStep = 'full' | 'reduced' | 'audioOnly';

/** One window of the link's statistics (lineReading.ts reads it out of getStats()). */
export interface LineReading {
  /** the reading's time, ms */
  at: number;
  /** loss the far end reports of what we send, % (remote-inbound-rtp); null when no report came in the window */
  sentLossPercent: number | null;
  /** loss of what we receive, % (inbound-rtp); null when nothing came. Read, not counted: it carries the sender's losses */
  receivedLossPercent: number | null;
  /** round trip of the selected candidate pair, ms */
  rttMs: number | null;
  /** the congestion controller's estimate of what we can send (availableOutgoingBitrate), kbit/s */
  availableKbps: number | null;
  /** what we sent in the window (all our RTP, headers included), kbit/s; null or absent: not measured */
  sentKbps?: number | null;
  /** the video encoder says the bandwidth limits it (qualityLimitationReason) */
  bandwidthLimited: boolean;
  /** the media took a new route in the window (an ICE restart), or came back after a stall: its estimate starts again */
  newRoute?: boolean;
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
  /** under it: hardly the audio (`reduced`'s cap takes a share of the estimate less the audio's) */
  badKbps: 60,
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
/**
 * a line weak or worse this long at its step (an unbroken run of such readings) that reads better now
 * has recovered: the first wait again, whatever a flap doubled. The doubled wait is for a line that
 * reads clean at `audioOnly` (only the audio crosses it) while it cannot carry the picture, and for one
 * weak every few seconds; not for one that was plainly bad for a while and is no longer.
 */
export const RECOVERY_MS = 8000;

/** how long the rate is not counted after the first reading, or a new route's (the estimate's start: startSmall.ts) */
export const START_RATE_GRACE_MS = 15_000;

/**
 * The estimate says a line is slow only while we use it: a sender under this share of its estimate is
 * application-limited (Chromium's ALR threshold, 65 %), and its estimate stays where it was, stale — at
 * `reduced` under its own cap, a low estimate left from the bad line would pause a picture the line
 * carries. It still has to show room for a step up.
 */
export const USED_SHARE = 0.65;

/** a round trip this far over the call's lowest is a queue on our own line */
export const QUEUE_RTT_MS = 150;

export interface GradeOptions {
  /** at `audioOnly` no video probes the line: its estimate says little */
  ignoreRate?: boolean;
}

/** Whether our round trip shows a queue of our own. */
export function queued(r: LineReading, baseRttMs: number | null | undefined): boolean {
  return r.rttMs !== null && baseRttMs !== null && baseRttMs !== undefined && r.rttMs - baseRttMs >= QUEUE_RTT_MS;
}

/** The grade of one reading. */
export function gradeOf(r: LineReading, options: GradeOptions = {}): LineGrade {
  const L = LINE_LIMITS;
  const loss = r.sentLossPercent ?? 0;
  // the round trip only with loss too: a busy machine's loopback line read 853 ms with nothing lost
  const rtt = loss >= L.fairLossPercent ? (r.rttMs ?? 0) : 0;
  const kbps = options.ignoreRate ? null : r.availableKbps;
  const used = kbps === null || r.sentKbps === null || r.sentKbps === undefined || r.sentKbps >= USED_SHARE * kbps;
  // the estimate against the line: only one we use, and only with loss: on a busy machine Chromium's
  // delay-based estimate falls on a clean loopback line (253 kbit/s while 609 were sent, recorded), while
  // a slow line loses some of what we send with its low estimate
  const slow = used && loss >= L.fairLossPercent ? kbps : null;
  if (loss >= L.badLossPercent || rtt >= L.badRttMs || (slow !== null && slow < L.badKbps)) return 'bad';
  if (
    loss >= L.weakLossPercent ||
    rtt >= L.weakRttMs ||
    (slow !== null && slow < L.weakKbps) ||
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
  /** the first and the last reading of the run of weak or worse ones at this step now (null: none) */
  troubleFrom?: number | null;
  troubleTo?: number | null;
  /** a run of them RECOVERY_MS long ended at this step */
  recovered?: boolean;
  /** the lowest round trip of the call so far, ms (null: none measured) */
  baseRttMs?: number | null;
}

export function initialLine(): LineState {
  return { step: 'full', weakRun: 0, badRun: 0, upSince: null, upWaitMs: UP_WAIT_MS, lastUpAt: null };
}

const ORDER: LineStep[] = ['full', 'reduced', 'audioOnly'];
const lower = (a: LineStep, b: LineStep): boolean => ORDER.indexOf(a) > ORDER.indexOf(b);

/** The state after one more reading. */
export function nextLine(state: LineState, r: LineReading): LineState {
  // an ICE restart's new route starts its estimate again, as a new connection's (a cut line comes back)
  const firstAt = r.newRoute ? r.at : (state.firstAt ?? r.at);
  const baseRttMs = r.rttMs === null ? (state.baseRttMs ?? null) : Math.min(state.baseRttMs ?? Infinity, r.rttMs);
  // a new connection's estimate starts at 300 kbit/s and grows: the rate says nothing in its first seconds
  const grade = gradeOf(r, { ignoreRate: state.step === 'audioOnly' || r.at - firstAt < START_RATE_GRACE_MS });
  // a reading with no fresh report of our loss (null) neither continues a run of weak ones nor breaks it:
  // the far end reports every few seconds
  const noNews = r.sentLossPercent === null && (grade === 'good' || grade === 'fair');
  const badRun = grade === 'bad' ? state.badRun + 1 : noNews ? state.badRun : 0;
  const weakRun = grade === 'bad' || grade === 'weak' ? state.weakRun + 1 : noNews ? state.weakRun : 0;
  const wanted: LineStep | null = badRun >= DOWN_READINGS ? 'audioOnly' : weakRun >= DOWN_READINGS ? 'reduced' : null;
  if (wanted && lower(wanted, state.step)) {
    const flapped = state.lastUpAt !== null && r.at - state.lastUpAt < FLAP_MS;
    return {
      firstAt,
      baseRttMs,
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
  // the trouble at this step: one unbroken run of weak readings (one with no news of the loss breaks none)
  const troubled = grade === 'weak' || grade === 'bad';
  const from = state.troubleFrom ?? null;
  const to = state.troubleTo ?? null;
  const recovered = state.recovered === true || (!troubled && !noNews && from !== null && to !== null && to - from >= RECOVERY_MS);
  const trouble = troubled
    ? { troubleFrom: from ?? r.at, troubleTo: r.at, recovered }
    : { troubleFrom: noNews ? from : null, troubleTo: noNews ? to : null, recovered };
  if (!allowsUp) return { ...state, ...trouble, firstAt, baseRttMs, weakRun, badRun, upSince: null, upWaitMs, lastUpAt };
  const wait = recovered ? UP_WAIT_MS : upWaitMs;
  const upSince = state.upSince ?? r.at;
  if (r.at - upSince < wait) return { ...state, ...trouble, firstAt, baseRttMs, weakRun, badRun, upSince, upWaitMs: wait, lastUpAt };
  const step: LineStep = state.step === 'audioOnly' ? 'reduced' : 'full';
  return { firstAt, baseRttMs, step, weakRun: 0, badRun: 0, upSince: null, upWaitMs: wait, lastUpAt: r.at };
}
