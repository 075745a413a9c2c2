/**
 * The guests whose last geofence check (PUT /api/geo-fence/check) placed them inside, and when. A company
 * that requests the guest's location opens a call only for a guest with a recent pass (the rule
 * was once the browser's alone). Kept in memory: a restart only asks the guest's browser to check again,
 * which it does on every visit (apps/guest journey gate).
 */
export const GEOFENCE_PASS_MS = 30 * 60 * 1000;
const MAX_ENTRIES = 100_000;

export function createGeofencePasses(now: () => number) {
  const passes = new Map<string, number>();
  return {
    passed(guestUsername: string): void {
      passes.delete(guestUsername);
      passes.set(guestUsername, now());
      // insertion order = age: drop the oldest beyond the cap (a flood of guests cannot grow it without end)
      while (passes.size > MAX_ENTRIES) passes.delete(passes.keys().next().value as string);
    },
    failed(guestUsername: string): void {
      passes.delete(guestUsername);
    },
    recent(guestUsername: string): boolean {
      const at = passes.get(guestUsername);
      return at !== undefined && now() - at <= GEOFENCE_PASS_MS;
    },
  };
}
export type GeofencePasses = ReturnType<typeof createGeofencePasses>;
