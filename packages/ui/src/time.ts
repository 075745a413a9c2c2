import { useEffect, useState } from 'react';

/** m:ss, or h:mm:ss past an hour. Negative durations count as 0. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The current time, re-rendering every `intervalMs` (only while mounted). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Time since `since` (epoch ms), formatted, ticking each second; '0:00' when null. */
export function useElapsed(since: number | null): string {
  const now = useNow();
  return formatDuration(since === null ? 0 : now - since);
}
