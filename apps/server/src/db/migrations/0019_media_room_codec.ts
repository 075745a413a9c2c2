import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * The codec a call's media room was made with (docs/protocol.md "Media room"): media_rooms.webview, 1
 * when the guest's app runs in a webview that decodes only H.264 (the room is made H.264-only), else 0
 * (VP8). A room made again after its Janus was lost (restarted, or the call moved to another node) keeps
 * it, whichever side asks first.
 */
export function mediaRoomCodec() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('media_rooms')
        .addColumn('webview', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('media_rooms').dropColumn('webview').execute();
    },
  };
}
