/**
 * The guests whose last geofence check (PUT /api/geo-fence/check) placed them inside, and when. A company
 * that requests the guest's location opens a call only for a guest with a recent pass (the rule
 * was once the browser's alone). Kept on the guest's row (guests.geofence_passed_at), so a pass recorded
 * by one server instance is honoured by another (docs/operations.md "Shared state: jobs, limits and files").
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const GEOFENCE_PASS_MS = 30 * 60 * 1000;

export function createGeofencePasses(db: Kysely<Database>, now: () => number) {
  const stamp = async (guestUsername: string, at: number | null) => {
    await db.updateTable('guests').set({ geofence_passed_at: at }).where('username', '=', guestUsername).execute();
  };
  return {
    passed: (guestUsername: string): Promise<void> => stamp(guestUsername, now()),
    failed: (guestUsername: string): Promise<void> => stamp(guestUsername, null),
    async recent(guestUsername: string): Promise<boolean> {
      const row = await db.selectFrom('guests').select('geofence_passed_at').where('username', '=', guestUsername).executeTakeFirst();
      const at = row?.geofence_passed_at;
      return at !== null && at !== undefined && now() - Number(at) <= GEOFENCE_PASS_MS;
    },
  };
}
export type GeofencePasses = ReturnType<typeof createGeofencePasses>;
