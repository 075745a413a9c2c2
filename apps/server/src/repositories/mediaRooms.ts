import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Table of migration 0006_media_rooms (kept beside its repository). */
export interface MediaRoomsTable {
  call_id: string;
  company_id: number;
  pin: string;
  secret: string;
  recording: number;
  /** 1: an agent answered and the call is to be recorded; recording starts when an agent publishes */
  record_armed: number;
  created_at: number;
  destroyed_at: number | null;
  /** the Janus node the room is on (migration 0018; null: made before it, on the first node) */
  janus_node: string | null;
  /** 1: made H.264-only for a webview guest, 0: VP8 (migration 0019); a room made again keeps it */
  webview: number;
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
    async add(
      row: Omit<MediaRoomRow, 'recording' | 'record_armed' | 'destroyed_at' | 'janus_node' | 'webview'> & { janus_node: string; webview?: number },
    ): Promise<boolean> {
      const result = await db
        .insertInto('media_rooms')
        .values({ webview: 0, ...row, recording: 0, record_armed: 0, destroyed_at: null })
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
    /**
     * Rooms still open whose call's guest was stamped gone before `before` (epoch ms: guest_exit_at,
     * services/vanishedGuests.ts), the call not continued by a resumed one (hold destroys its room anyway).
     */
    async openOfGuestsGoneBefore(before: number): Promise<string[]> {
      const rows = await db
        .selectFrom('media_rooms')
        .innerJoin('call_reports', 'call_reports.call_id', 'media_rooms.call_id')
        .select('media_rooms.call_id')
        .where('media_rooms.destroyed_at', 'is', null)
        .where('call_reports.guest_exit_at', '<', before)
        .execute();
      return rows.map((r) => r.call_id);
    },
    /** Open rooms per Janus node (null: rooms made before nodes were recorded). */
    async openPerNode(): Promise<Map<string | null, number>> {
      const rows = await db
        .selectFrom('media_rooms')
        .select((eb) => ['janus_node', eb.fn.countAll<number | string>().as('rooms')])
        .where('destroyed_at', 'is', null)
        .groupBy('janus_node')
        .execute();
      return new Map(rows.map((r) => [r.janus_node, Number(r.rooms)]));
    },
    /**
     * Moves an open room to another Janus node, only from the node it was read on: true when this call
     * moved it (two rejoining participants move it once).
     */
    async moveNode(callId: string, from: string | null, to: string): Promise<boolean> {
      const result = await db
        .updateTable('media_rooms')
        .set({ janus_node: to })
        .where('call_id', '=', callId)
        .where('destroyed_at', 'is', null)
        .where('janus_node', from === null ? 'is' : '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setRecording(callId: string, recording: 0 | 1 = 1): Promise<void> {
      await db.updateTable('media_rooms').set({ recording }).where('call_id', '=', callId).execute();
    },
    async arm(callId: string): Promise<void> {
      await db.updateTable('media_rooms').set({ record_armed: 1 }).where('call_id', '=', callId).execute();
    },
    /**
     * Marks an armed, open, not yet recording room as recording; true when this call did it (so exactly
     * one caller sends Janus its enable_recording), with the room's secret.
     */
    async claimRecordingStart(callId: string): Promise<string | null> {
      const result = await db
        .updateTable('media_rooms')
        .set({ recording: 1 })
        .where('call_id', '=', callId)
        .where('record_armed', '=', 1)
        .where('recording', '=', 0)
        .where('destroyed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const row = await db.selectFrom('media_rooms').select('secret').where('call_id', '=', callId).executeTakeFirst();
      return row?.secret ?? null;
    },
    async setDestroyed(callId: string, now: number): Promise<void> {
      await db.updateTable('media_rooms').set({ destroyed_at: now }).where('call_id', '=', callId).execute();
    },
  };
}
