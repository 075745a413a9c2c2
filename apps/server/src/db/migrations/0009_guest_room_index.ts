import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * guest_rooms.created_at (when the room was last provisioned): the guest-room janitor asks every minute
 * for the oldest rooms (services/guestRoomJanitor.ts, `order by created_at limit 500`). Without an index
 * that is a scan and a sort of every guest's rooms, two per guest who ever visited, on the server's only
 * thread with SQLite.
 */
export function guestRoomIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('guest_rooms_created').on('guest_rooms').column('created_at').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('guest_rooms_created').execute();
    },
  };
}
