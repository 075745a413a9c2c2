/**
 * How many Janus sessions one room token may create (docs/security.md "Media plane"): a guest's call
 * needs one (janus.js puts every handle on it) and a few more over reconnects, but one guest token once
 * created 300 in under two seconds, each held by Janus until its timeout. So at most
 * MAX_SESSIONS_PER_TOKEN creations per token's room and participant within SESSION_BUDGET_WINDOW_MS; a
 * claim (a reconnect taking its own session back) creates nothing and is not counted. In memory, in the
 * gate process; bounded like the gate's other maps.
 */
export const MAX_SESSIONS_PER_TOKEN = 10;
export const SESSION_BUDGET_WINDOW_MS = 10 * 60_000;
const MAX_KEYS = 50_000;

export function createSessionBudget(now: () => number = Date.now) {
  /** key → when its sessions were created, oldest first */
  const created = new Map<string, number[]>();
  return {
    /** Counts one more session for `key`, or answers false (nothing counted) when it has its MAX already. */
    take(key: string): boolean {
      const at = now();
      const recent = (created.get(key) ?? []).filter((t) => at - t < SESSION_BUDGET_WINDOW_MS);
      if (recent.length >= MAX_SESSIONS_PER_TOKEN) return false;
      recent.push(at);
      created.delete(key);
      created.set(key, recent);
      while (created.size > MAX_KEYS) created.delete(created.keys().next().value as string);
      return true;
    },
  };
}
export type SessionBudget = ReturnType<typeof createSessionBudget>;
