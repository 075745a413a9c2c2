import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface NewCallBug {
  companyId: number;
  callId: string;
  guestUsername: string;
  guestId: string | null;
  guestLog: string;
  guestState: string;
  guestClientInfo: string;
  now: number;
}

/** Failed call stages reported by guests (SPEC.md §7 call-bug/by-guest), kept for support. */
export function createCallBugsRepository(db: Kysely<Database>) {
  return {
    async add(b: NewCallBug): Promise<number> {
      const r = await db
        .insertInto('call_bugs')
        .values({
          company_id: b.companyId,
          call_id: b.callId,
          guest_username: b.guestUsername,
          guest_id: b.guestId,
          guest_log: b.guestLog,
          guest_state: b.guestState,
          guest_client_info: b.guestClientInfo,
          created_at: b.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
  };
}
