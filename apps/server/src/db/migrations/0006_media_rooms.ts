import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * Each call's Janus room, created by the server (docs/protocol.md "Media room"): its random pin (handed
 * to the call's guest and its company's agents) and secret (the server's alone: moderation, recording,
 * destroy), whether the server started its recording, and when it destroyed it.
 */
export function mediaRooms(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('media_rooms')
        .addColumn('call_id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('pin', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('recording', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('destroyed_at', 'bigint')
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('media_rooms').execute();
    },
  };
}
