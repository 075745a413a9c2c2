/**
 * The estimate of a waiting guest's wait (docs/guest-journey.md "Place in the queue and estimate"):
 * how long until an agent of its pool answers it, from the company's own recent history, never a
 * constant. Pure: the caller reads the queue, the agents and the history; the bench replays synthetic
 * days through it (bench/wait-estimate.ts).
 *
 * The estimate is a small simulation run a few hundred times: each busy agent frees up after what is
 * left of a handle time drawn from the history (one longer than its call lasted so far), each guest ahead
 * takes the first free agent (or leaves first, as readily as the history's waiting guests left), and this
 * guest's wait is when the next agent frees up plus the time an agent takes to pick up. The median of the
 * runs is the estimate; the spread between its 10th and 90th percentiles says how sure it is, and the
 * number said is the one most of the runs fall within 30 % of (below the median when waits run long). With too
 * little history, or a spread too wide for a number to be true, it says so instead of guessing.
 */

export interface WaitPool {
  /** calls of the same pool that came before this one and are still waiting */
  ahead: number;
  /** the pool's available agents now: how long each has been in its current call (ms), null when free */
  agents: Array<{ busyForMs: number | null }>;
}

export interface WaitHistory {
  /** handle times (answer → end, ms) of the pool's recent answered calls */
  handleMs: number[];
  /** the time an agent took to pick up a call while free (ms), recent samples */
  pickupMs: number[];
  /**
   * how readily waiting guests leave: recent calls left before an answer, divided by the time all recent
   * calls spent waiting (per ms). Read as a patience that runs out at this rate (memoryless), so a guest
   * far down the queue is likelier to leave before its turn than one at its head.
   */
  abandonPerMs: number;
}

export type WaitEstimate =
  /** almost surely under a minute (an agent is free or frees up now): "less than a minute" */
  | { kind: 'underMinute'; medianMs: number }
  /** `saidMs` is the number shown: the one likeliest to be within TOLERANCE of the real wait */
  | { kind: 'minutes'; saidMs: number; medianMs: number; lowMs: number; highMs: number }
  /** a long wait, too uncertain for a number but surely over its 10th percentile: "more than N minutes" */
  | { kind: 'longWait'; atLeastMs: number }
  /** a real wait, but too uncertain for a number: "a few minutes" */
  | { kind: 'fewMinutes'; medianMs: number }
  | { kind: 'none'; reason: 'noHistory' | 'noAgents' | 'tooUncertain' };

/** the fewest answered calls in the history before an estimate is given */
export const MIN_HISTORY = 10;
/** a number is given when (90th − 10th percentile) / median stays under this */
export const MAX_SPREAD = 0.6;
/** "a few minutes" covers an uncertain wait whose 90th percentile stays within this; past it nothing is said */
export const FEW_MINUTES_MS = 10 * 60_000;
/** "more than N minutes" is said when the 10th percentile reaches this (shorter floors say little) */
export const LONG_WAIT_MS = 5 * 60_000;
const RUNS = 300;

/** A small seeded generator (mulberry32): the same inputs give the same estimate. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** how far off a number may be and still be right: the share of guests within it is the budget's measure */
export const TOLERANCE = 0.3;

/**
 * The number most likely to be within `tolerance` of the real wait, and how likely that is, read from the
 * simulated waits (sorted). A number x is right for the waits in [x / (1 + t), x / (1 − t)]; for the most
 * runs such a window can hold, every x from (1 − t) × its longest to (1 + t) × its shortest serves, and
 * the one nearest the median is said (below it when waits run long).
 */
export function likeliestWithin(sorted: number[], tolerance: number): { atMs: number; share: number } {
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  let best = { atMs: median, share: 0 };
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    const highest = (sorted[start]! * (1 + tolerance)) / (1 - tolerance);
    if (end < start) end = start;
    while (end + 1 < sorted.length && sorted[end + 1]! <= highest) end++;
    const share = (end - start + 1) / sorted.length;
    const lowestX = sorted[end]! * (1 - tolerance);
    const highestX = sorted[start]! * (1 + tolerance);
    const atMs = Math.min(highestX, Math.max(lowestX, median));
    if (
      share > best.share ||
      (share === best.share && Math.abs(atMs - median) < Math.abs(best.atMs - median))
    ) {
      best = { atMs, share };
    }
  }
  return best;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;

export function estimateWait(pool: WaitPool, history: WaitHistory, seed = 1): WaitEstimate {
  if (history.handleMs.length < MIN_HISTORY) return { kind: 'none', reason: 'noHistory' };
  if (pool.agents.length === 0) return { kind: 'none', reason: 'noAgents' };
  const random = seeded(seed);
  const handles = [...history.handleMs].sort((a, b) => a - b);
  const pickups = history.pickupMs.length > 0 ? history.pickupMs : [0];
  const draw = (from: number[]) => from[Math.floor(random() * from.length)]!;
  /** what is left of a call that lasted `elapsed` so far: a handle time longer than that, minus it */
  const remaining = (elapsed: number): number => {
    const longer = handles.findIndex((h) => h > elapsed);
    // a call longer than any in the history: it ends soon, as far as the history can tell
    if (longer < 0) return draw(pickups);
    return handles[longer + Math.floor(random() * (handles.length - longer))]! - elapsed;
  };
  const meanHandle = handles.reduce((a, b) => a + b, 0) / handles.length;
  const waits: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // the history is a sample too: each run scales handle times as a resample of it would (a bootstrap of
    // the mean), so a short history widens the spread instead of reading as certainty
    let resampled = 0;
    for (let i = 0; i < handles.length; i++) resampled += draw(handles);
    const scale = resampled / handles.length / meanHandle;
    const handle = () => draw(handles) * scale;
    const freeAt = pool.agents.map((a) => (a.busyForMs === null ? 0 : remaining(a.busyForMs)));
    const next = () => {
      let best = 0;
      for (let i = 1; i < freeAt.length; i++) if (freeAt[i]! < freeAt[best]!) best = i;
      return best;
    };
    for (let i = 0; i < pool.ahead; i++) {
      const agent = next();
      // this guest ahead leaves before an agent is free for it
      const patience = history.abandonPerMs > 0 ? -Math.log(1 - random()) / history.abandonPerMs : Infinity;
      if (patience < freeAt[agent]!) continue;
      freeAt[agent] = freeAt[agent]! + draw(pickups) + handle();
    }
    waits.push(freeAt[next()]! + draw(pickups));
  }
  waits.sort((a, b) => a - b);
  const medianMs = percentile(waits, 0.5);
  const lowMs = percentile(waits, 0.1);
  const highMs = percentile(waits, 0.9);
  if (highMs <= 60_000) return { kind: 'underMinute', medianMs };
  if ((highMs - lowMs) / medianMs < MAX_SPREAD) {
    return { kind: 'minutes', saidMs: likeliestWithin(waits, TOLERANCE).atMs, medianMs, lowMs, highMs };
  }
  if (highMs <= FEW_MINUTES_MS) return { kind: 'fewMinutes', medianMs };
  if (lowMs >= LONG_WAIT_MS) return { kind: 'longWait', atLeastMs: lowMs };
  return { kind: 'none', reason: 'tooUncertain' };
}
