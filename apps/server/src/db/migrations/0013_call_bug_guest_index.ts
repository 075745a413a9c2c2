import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * call_bugs_guest: POST /api/call-bug/by-guest counts a guest's reports of the last hour, and a call's
 * reports, before it stores another (docs/security.md "Call-bug reports"); without it each count read
 * every report of the company.
 */
export function callBugGuestIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('call_bugs_guest').on('call_bugs').columns(['company_id', 'guest_username', 'created_at']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('call_bugs_guest').execute();
    },
  };
}
