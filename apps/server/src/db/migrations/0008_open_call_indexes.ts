import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * Indexes for the queries that run on every open call, found by bench/api (docs/performance.md):
 * - call_reports.previous_call_id: the vanished-guest sweep (services/vanishedGuests.ts, every 3 s) skips
 *   calls continued by a resumed call with `not exists (… where next.previous_call_id = r.call_id)`;
 *   without an index that is a scan of every report per open call — seconds once a company has a few
 *   thousand calls, blocking the server's event loop on SQLite (partial: only resumed calls have one);
 * - the open calls themselves (not ended), by creation time: a partial index, so the
 *   sweep reads the few open calls instead of every report of the last hours.
 */
export function openCallIndexes() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // partial: only resumed calls have a previous call, so a new call's insert does not touch it
      await db.schema
        .createIndex('call_reports_previous')
        .on('call_reports')
        .column('previous_call_id')
        .where(sql.ref('previous_call_id'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('call_reports_open')
        .on('call_reports')
        .column('created_at')
        .where(sql.ref('call_ended_at'), 'is', null)
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('call_reports_open').execute();
      await db.schema.dropIndex('call_reports_previous').execute();
    },
  };
}
