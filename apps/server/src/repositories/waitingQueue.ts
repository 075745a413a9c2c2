import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The reads behind a waiting guest's place and estimate (services/waitingPlace.ts): the calls ahead of
 * it in its pool, the pool's calls in progress, and the pool's recent history. A pool is the calls of one
 * assignment that are not appointment calls (an appointment call waits for its own agent: it is alone in
 * its pool).
 */
export interface WaitingCall {
  id: number;
  company_id: number;
  assignment_id: number | null;
  appointment_reference: string | null;
  created_at: number;
}

export interface PoolHistory {
  /** answered calls that ended since: agent answer → end */
  handleMs: number[];
  /** answered calls since: creation → agent answer */
  waitMs: number[];
  /** calls left unanswered since: creation → end */
  abandonedWaitMs: number[];
}

export function createWaitingQueueRepository(db: Kysely<Database>) {
  const pool = (companyId: number, assignmentId: number | null) =>
    db
      .selectFrom('call_reports')
      .where('company_id', '=', companyId)
      .where('status', '=', 'ok')
      .where('appointment_reference', 'is', null)
      .where((eb) =>
        assignmentId === null ? eb('assignment_id', 'is', null) : eb('assignment_id', '=', assignmentId),
      );
  return {
    /** Waiting calls of the pool opened before `call` (since `since`): neither answered nor ended. */
    async ahead(call: WaitingCall, since: number): Promise<number> {
      const row = await pool(call.company_id, call.assignment_id)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('call_ended_at', 'is', null)
        .where('agent_answered_at', 'is', null)
        .where('room_jid', 'is not', null)
        .where('created_at', '>=', since)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', call.created_at),
            eb.and([eb('created_at', '=', call.created_at), eb('id', '<', call.id)]),
          ]),
        )
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** How long each of the pool's calls in progress has lasted since its agent answered (ms). */
    async inProgress(
      companyId: number,
      assignmentId: number | null,
      since: number,
      now: number,
    ): Promise<number[]> {
      const rows = await pool(companyId, assignmentId)
        .select('agent_answered_at')
        .where('call_ended_at', 'is', null)
        .where('agent_answered_at', 'is not', null)
        .where('created_at', '>=', since)
        .execute();
      return rows.map((r) => Math.max(0, now - (r.agent_answered_at ?? now)));
    },
    /** How many of these users serve the assignment (user_assignments). */
    async serving(assignmentId: number, userIds: number[]): Promise<number> {
      if (userIds.length === 0) return 0;
      const row = await db
        .selectFrom('user_assignments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('assignment_id', '=', assignmentId)
        .where('user_id', 'in', userIds)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** The pool's calls that ended since `since` (at most `limit`, the latest). */
    async history(
      companyId: number,
      assignmentId: number | null,
      since: number,
      limit: number,
    ): Promise<PoolHistory> {
      const rows = await pool(companyId, assignmentId)
        .select(['created_at', 'agent_answered_at', 'call_ended_at'])
        .where('call_ended_at', 'is not', null)
        .where('call_ended_at', '>=', since)
        .orderBy('call_ended_at', 'desc')
        .limit(limit)
        .execute();
      const out: PoolHistory = { handleMs: [], waitMs: [], abandonedWaitMs: [] };
      for (const r of rows) {
        const ended = r.call_ended_at ?? 0;
        if (r.agent_answered_at !== null) {
          out.handleMs.push(Math.max(0, ended - r.agent_answered_at));
          out.waitMs.push(Math.max(0, r.agent_answered_at - r.created_at));
        } else out.abandonedWaitMs.push(Math.max(0, ended - r.created_at));
      }
      return out;
    },
  };
}
export type WaitingQueueRepository = ReturnType<typeof createWaitingQueueRepository>;
