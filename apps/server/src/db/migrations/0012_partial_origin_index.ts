import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * call_reports_origin holds only the calls that have an origin: a resumed call (hold-call) names the first
 * call of its chain, a new call has none. As a full index it took an entry (a null) from every new call's
 * insert, one of the five each opened call writes (docs/performance.md, "Service API"); the chain lookups
 * (`origin_call_id = ?`, which implies not null) still use it on both databases (test/db/indexes.test.ts).
 */
export function partialOriginIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('call_reports_origin').execute();
      await db.schema
        .createIndex('call_reports_origin')
        .on('call_reports')
        .column('origin_call_id')
        .where(sql.ref('origin_call_id'), 'is not', null)
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('call_reports_origin').execute();
      await db.schema.createIndex('call_reports_origin').on('call_reports').column('origin_call_id').execute();
    },
  };
}
