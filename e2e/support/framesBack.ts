/**
 * When a page's decoded video frames came back after a fault (a media server killed), from readings of
 * their count: pure, so that its rule has a unit test (test/framesBackAfter.test.ts); media.ts watchFrames
 * takes the readings.
 */

/** A reading of decoded video frames: when the browser took it (ms since the epoch) and the count. */
export interface FramesReading {
  at: number;
  frames: number;
}

/** readings with no new frame spanning at least this long are a stop (a loaded page can miss one reading) */
export const FRAMES_STOP_MS = 300;

/**
 * When frames came back after they stopped at or after `faultAt`: the first reading whose count grew after
 * readings taken at or after `faultAt` that did not grow for FRAMES_STOP_MS or more. Frames still decoded
 * just after the fault (the jitter buffer) come before the stop and do not count; a pause before the fault
 * (a loaded machine) does not count either. Null while frames have not stopped and come back.
 */
export function framesBackAfter(readings: FramesReading[], faultAt: number): number | null {
  let stoppedSince: number | null = null;
  let stopped = false;
  for (let i = 1; i < readings.length; i++) {
    const prev = readings[i - 1]!;
    const now = readings[i]!;
    if (now.at < faultAt) continue;
    if (now.frames > prev.frames) {
      if (stopped) return now.at;
      stoppedSince = null;
      continue;
    }
    stoppedSince ??= Math.max(prev.at, faultAt);
    if (now.at - stoppedSince >= FRAMES_STOP_MS) stopped = true;
  }
  return null;
}
