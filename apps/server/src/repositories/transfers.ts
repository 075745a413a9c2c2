import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Table of migration 0004_call_transfers (kept beside its repository). */
export interface CallTransfersTable {
  id: Generated<number>;
  company_id: number;
  call_id: string;
  from_user_id: number | null;
  to_user_id: number | null;
  to_assignment_id: number | null;
  accepted_by_user_id: number | null;
  requested_at: number;
  accepted_at: number | null;
}

interface TransferDatabase extends Database {
  call_transfers: CallTransfersTable;
}

export function createTransfersRepository(base: Kysely<Database>) {
  const db = base as unknown as Kysely<TransferDatabase>;
  return {
    async add(t: { companyId: number; callId: string; fromUserId: number; toUserId: number | null; toAssignmentId: number | null; now: number }): Promise<number> {
      const row = await db
        .insertInto('call_transfers')
        .values({
          company_id: t.companyId,
          call_id: t.callId,
          from_user_id: t.fromUserId,
          to_user_id: t.toUserId,
          to_assignment_id: t.toAssignmentId,
          requested_at: t.now,
          accepted_at: null,
          accepted_by_user_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async byId(companyId: number, id: number) {
      return (await db.selectFrom('call_transfers').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst()) ?? null;
    },

    /** Marks it taken; false when somebody took it first (one statement decides). */
    async accept(id: number, userId: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('call_transfers')
        .set({ accepted_at: now, accepted_by_user_id: userId })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
