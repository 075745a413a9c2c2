import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * A guest books a time instead of waiting (docs/guest-journey.md "Booking a time instead"):
 * - appointments.booked_by: the guest who booked it (null: made in the console), call_type video | voice,
 *   booked_from: the address it was booked from (keyed as the open calls' address, docs/security.md);
 *   one guest booking per agent and start time, whichever server instance takes the two requests;
 * - call_reports.booked_at: the guest left the queue by booking (reported as booked, not abandoned).
 */
export function guestBooking() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('appointments').addColumn('booked_by', 'text').execute();
      await db.schema.alterTable('appointments').addColumn('call_type', 'text').execute();
      await db.schema.alterTable('appointments').addColumn('booked_from', 'text').execute();
      await db.schema
        .createIndex('appointments_booked_agent_time')
        .on('appointments')
        .columns(['agent_id', 'starts_at'])
        .unique()
        .where(sql.ref('booked_by'), 'is not', null)
        .execute();
      await db.schema.alterTable('call_reports').addColumn('booked_at', 'bigint').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('call_reports').dropColumn('booked_at').execute();
      await db.schema.dropIndex('appointments_booked_agent_time').execute();
      await db.schema.alterTable('appointments').dropColumn('booked_from').execute();
      await db.schema.alterTable('appointments').dropColumn('call_type').execute();
      await db.schema.alterTable('appointments').dropColumn('booked_by').execute();
    },
  };
}
