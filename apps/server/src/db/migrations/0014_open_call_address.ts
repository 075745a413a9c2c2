import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * call_reports.opened_from: a keyed hash of the address a call was opened from (never the address
 * itself), so that POST /api/call-report/add can count a company's open calls from one address against
 * its `maxOpenCallsPerAddress` (docs/security.md "Open calls"). Partial index: only open calls are counted.
 */
export function openCallAddress() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('call_reports').addColumn('opened_from', 'text').execute();
      await db.schema
        .createIndex('call_reports_open_from')
        .on('call_reports')
        .columns(['company_id', 'opened_from'])
        .where(sql.ref('call_ended_at'), 'is', null)
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('call_reports_open_from').execute();
      await db.schema.alterTable('call_reports').dropColumn('opened_from').execute();
    },
  };
}
