import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Table of migration 0006_media_rooms (kept beside its repository). */
export interface MediaRoomsTable {
  call_id: string;
  company_id: number;
  pin: string;
  secret: string;
  recording: number;
  created_at: number;
  destroyed_at: number | null;
}

interface MediaDatabase extends Database {
  media_rooms: MediaRoomsTable;
}

export type MediaRoomRow = MediaRoomsTable;

export function createMediaRoomsRepository(base: Kysely<Database>) {
  const db = base as unknown as Kysely<MediaDatabase>;
  return {
    async byCallId(callId: string): Promise<MediaRoomRow | null> {
      return (await db.selectFrom('media_rooms').selectAll().where('call_id', '=', callId).executeTakeFirst()) ?? null;
    },
    /** Inserts the room; false when another request inserted one for this call first. */
    async add(row: Omit<MediaRoomRow, 'recording' | 'destroyed_at'>): Promise<boolean> {
      const result = await db
        .insertInto('media_rooms')
        .values({ ...row, recording: 0, destroyed_at: null })
        .onConflict((c) => c.column('call_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async remove(callId: string): Promise<void> {
      await db.deleteFrom('media_rooms').where('call_id', '=', callId).execute();
    },
    /** Rooms still open that were created before `before` (epoch ms). */
    async openBefore(before: number): Promise<string[]> {
      const rows = await db
        .selectFrom('media_rooms')
        .select('call_id')
        .where('destroyed_at', 'is', null)
        .where('created_at', '<', before)
        .execute();
      return rows.map((r) => r.call_id);
    },
    async setRecording(callId: string): Promise<void> {
      await db.updateTable('media_rooms').set({ recording: 1 }).where('call_id', '=', callId).execute();
    },
    async setDestroyed(callId: string, now: number): Promise<void> {
      await db.updateTable('media_rooms').set({ destroyed_at: now }).where('call_id', '=', callId).execute();
    },
  };
}
