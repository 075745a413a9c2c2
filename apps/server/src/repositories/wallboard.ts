import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The calls of a company waiting now, per assignment (null: appointment calls): opened since `since`,
 * accepted, no agent took them, not ended, not left, not booked instead. With the oldest one's start.
 */
export async function waitingByAssignment(
  db: Kysely<Database>,
  companyId: number,
  since: number,
): Promise<Array<{ assignmentId: number | null; waiting: number; oldest: number }>> {
  const rows = await db
    .selectFrom('call_reports')
    .select((eb) => ['assignment_id', eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest')])
    .where('company_id', '=', companyId)
    .where('status', '=', 'ok')
    .where('created_at', '>=', since)
    .where('agent_answered_at', 'is', null)
    .where('call_ended_at', 'is', null)
    .where('guest_exit_at', 'is', null)
    .where('booked_at', 'is', null)
    .groupBy('assignment_id')
    .execute();
  return rows.map((r) => ({ assignmentId: r.assignment_id, waiting: Number(r.waiting), oldest: Number(r.oldest) }));
}
