/**
 * The wait estimate (services/waitEstimate.ts) on recorded queue states: it follows the queue and the
 * agents, says "less than a minute" when an agent is free, and says nothing rather than a wrong number
 * when the history is short or the wait too uncertain.
 */
import { describe, expect, it } from 'vitest';
import {
  estimateWait,
  likeliestWithin,
  MIN_HISTORY,
  TOLERANCE,
  type WaitHistory,
} from '../../src/services/waitEstimate.ts';

const MIN = 60_000;
/** handle times spread around four minutes, as a company's afternoon recorded them */
const fourMinutes = [
  3.1, 3.4, 3.6, 3.8, 3.9, 4.0, 4.0, 4.1, 4.2, 4.4, 4.5, 4.7, 3.7, 4.3, 3.9, 4.1, 4.0, 3.8, 4.2, 4.6,
].map((m) => m * MIN);
const history = (over: Partial<WaitHistory> = {}): WaitHistory => ({
  handleMs: fourMinutes,
  pickupMs: [5_000, 8_000, 12_000],
  abandonPerMs: 0,
  ...over,
});
const busy = (...minutes: number[]) => minutes.map((m) => ({ busyForMs: m * MIN }));

describe('estimateWait', () => {
  it('when an agent of the pool is free and nobody is ahead, then less than a minute', () => {
    expect(estimateWait({ ahead: 0, agents: [{ busyForMs: null }, ...busy(1)] }, history())).toMatchObject({
      kind: 'underMinute',
    });
  });

  it('when every agent is busy and calls wait ahead, then a number that grows with the queue and shrinks with more agents', () => {
    const wait = (ahead: number, agents: number) => {
      const e = estimateWait({ ahead, agents: busy(...Array<number>(agents).fill(2)) }, history());
      expect(e.kind, `${ahead} ahead, ${agents} agents`).toBe('minutes');
      return e.kind === 'minutes' ? e.medianMs : NaN;
    };
    // two agents two minutes into four-minute calls, six calls ahead: about 2 + 3 × 4 minutes
    expect(wait(6, 2)).toBeGreaterThan(11 * MIN);
    expect(wait(6, 2)).toBeLessThan(17 * MIN);
    expect(wait(10, 2)).toBeGreaterThan(wait(6, 2));
    expect(wait(6, 3)).toBeLessThan(wait(6, 2));
  });

  it('when guests ahead have been leaving the queue, then the wait is shorter than if none left', () => {
    const pool = { ahead: 8, agents: busy(1, 3) };
    const staying = estimateWait(pool, history());
    const leaving = estimateWait(pool, history({ abandonPerMs: 1 / (5 * MIN) }));
    expect(staying.kind === 'minutes' && 'medianMs' in leaving && leaving.medianMs < staying.medianMs).toBe(
      true,
    );
  });

  it('when the history holds fewer answered calls than the minimum, then nothing is said', () => {
    expect(
      estimateWait(
        { ahead: 3, agents: busy(1) },
        history({ handleMs: fourMinutes.slice(0, MIN_HISTORY - 1) }),
      ),
    ).toEqual({ kind: 'none', reason: 'noHistory' });
  });

  it('when no agent of the pool is available, then nothing is said', () => {
    expect(estimateWait({ ahead: 0, agents: [] }, history())).toEqual({ kind: 'none', reason: 'noAgents' });
  });

  it('when handle times vary wildly and one call is ahead, then no confident number: "a few minutes" or nothing', () => {
    const wild = [0.3, 0.5, 1, 2, 4, 8, 15, 25, 0.4, 6, 12, 0.8].map((m) => m * MIN);
    const e = estimateWait({ ahead: 1, agents: busy(0.2) }, history({ handleMs: wild }));
    expect(['fewMinutes', 'none']).toContain(e.kind);
  });

  it('when asked twice with the same inputs, then the same answer (a seeded simulation, not a new guess each poll)', () => {
    const pool = { ahead: 4, agents: busy(1, 2) };
    expect(estimateWait(pool, history(), 42)).toEqual(estimateWait(pool, history(), 42));
  });

  it('when the simulated waits run long, then the number said is the one most waits fall within 30 % of, below their median', () => {
    // waits skewed long, as a queue's are: most near 6 minutes, a tail out to 20
    const waits = [5, 5.5, 5.8, 6, 6, 6.2, 6.5, 7, 8, 9, 11, 14, 17, 20].map((m) => m * MIN);
    const median = waits[Math.floor(waits.length / 2)]!;
    const within = (x: number) => waits.filter((w) => Math.abs(x - w) / w <= TOLERANCE).length;
    const said = likeliestWithin(waits, TOLERANCE);
    expect(said.atMs).toBeLessThan(median);
    expect(within(said.atMs)).toBeGreaterThan(within(median));
    expect(said.share).toBeCloseTo(within(said.atMs) / waits.length, 5);
  });

  it('when a number is said, then it lies within the simulated spread (10th to 90th percentile)', () => {
    const e = estimateWait({ ahead: 10, agents: busy(1, 2, 3) }, history());
    expect(e.kind).toBe('minutes');
    if (e.kind !== 'minutes') return;
    expect(e.saidMs).toBeGreaterThanOrEqual(e.lowMs);
    expect(e.saidMs).toBeLessThanOrEqual(e.highMs);
  });
});
