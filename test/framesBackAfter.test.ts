import { describe, expect, it } from 'vitest';
import { framesBackAfter, type FramesReading } from '../e2e/support/framesBack.ts';

/** readings every 100 ms from t = 0, with the given counts */
const readings = (counts: number[]): FramesReading[] => counts.map((frames, i) => ({ at: i * 100, frames }));

describe('frames back after a fault', () => {
  it('is the first growth after a stop that began at or after the fault', () => {
    // frames until 300, the fault at 250, nothing until 900, then frames again
    expect(framesBackAfter(readings([0, 3, 6, 9, 9, 9, 9, 9, 9, 12, 15]), 250)).toBe(900);
  });

  it('sees a recovery that was over before the fault was known to be done (watched from before it)', () => {
    expect(framesBackAfter(readings([0, 3, 6, 6, 6, 6, 6, 8, 11, 14]), 150)).toBe(700);
  });

  it('does not take a pause before the fault, or frames still decoded just after it, for the stop', () => {
    // a pause at 200–500 before the fault at 600; buffered frames at 700; the stop from 700; back at 1300
    const r = readings([0, 3, 3, 3, 3, 3, 6, 7, 7, 7, 7, 7, 7, 10]);
    expect(framesBackAfter(r, 600)).toBe(1300);
  });

  it('does not take one reading without a new frame (a loaded page) for the stop', () => {
    expect(framesBackAfter(readings([0, 3, 6, 6, 9, 12, 15]), 100)).toBeNull();
  });

  it('counts a sum that fell (the old connection closed) as no growth, and the new connection growing as back', () => {
    expect(framesBackAfter(readings([100, 103, 106, 106, 106, 106, 2, 5, 8]), 150)).toBe(700);
  });

  it('is null while frames have not come back', () => {
    expect(framesBackAfter(readings([0, 3, 6, 6, 6, 6, 6]), 150)).toBeNull();
  });
});
