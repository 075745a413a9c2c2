/**
 * When the agent's call timer started. It starts when media first flows and then runs
 * for as long as the agent keeps the call: hold and resume move the guest to a new call id and through
 * "joining" again, but it stays one conversation, so the timer neither restarts nor says "Connecting…".
 * `started` is the running call's start so far (null before media flowed, and again once the call is gone).
 */
export function callClock(started: number | null, mediaFlowing: boolean, now: number): number | null {
  if (started !== null) return started;
  return mediaFlowing ? now : null;
}
