import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * What the agent learns about a call beyond its timestamps: the guest's position when the company asks
 * for it (latitude and longitude as strings, sent with POST /api/call-report/add), and the
 * agent's note written after the call (wrap-up), with who wrote it and when.
 */
export function callDetails(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('call_reports').addColumn('latitude', 'text').execute();
      await db.schema.alterTable('call_reports').addColumn('longitude', 'text').execute();
      await db.schema.alterTable('call_reports').addColumn('agent_note', 'text').execute();
      // the author; a deleted user leaves the note without a name
      await db.schema
        .alterTable('call_reports')
        .addColumn('agent_note_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('call_reports').addColumn('agent_note_at', 'bigint').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const column of ['agent_note_at', 'agent_note_by', 'agent_note', 'longitude', 'latitude']) {
        await db.schema.alterTable('call_reports').dropColumn(column).execute();
      }
    },
  };
}
