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

/** Failed call stages reported by guests (docs/api.md `POST /call-bug/by-guest`), kept for support for a while (services/callBugRetention.ts). */
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
    /**
     * How many reports a guest stored since `since`, and how many it stored for `callId` (index
     * call_bugs_guest); with `upToId`, only those stored before that one and itself (the reports that
     * came first win a race of simultaneous requests).
     */
    async countsOf(companyId: number, guestUsername: string, callId: string, since: number, upToId?: number): Promise<{ guest: number; call: number }> {
      let own = db.selectFrom('call_bugs').where('company_id', '=', companyId).where('guest_username', '=', guestUsername);
      if (upToId !== undefined) own = own.where('id', '<=', upToId);
      const [guest, call] = await Promise.all([
        own.select((eb) => eb.fn.countAll<number | string>().as('n')).where('created_at', '>=', since).executeTakeFirstOrThrow(),
        own.select((eb) => eb.fn.countAll<number | string>().as('n')).where('call_id', '=', callId).executeTakeFirstOrThrow(),
      ]);
      return { guest: Number(guest.n), call: Number(call.n) };
    },
    async remove(id: number): Promise<void> {
      await db.deleteFrom('call_bugs').where('id', '=', id).execute();
    },
    /** Deletes the company's reports stored before `before`; answers how many. */
    async deleteBefore(companyId: number, before: number): Promise<number> {
      const r = await db.deleteFrom('call_bugs').where('company_id', '=', companyId).where('created_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** The companies that have reports (the retention job's round). */
    async companies(): Promise<number[]> {
      const rows = await db.selectFrom('call_bugs').select('company_id').distinct().execute();
      return rows.map((r) => Number(r.company_id));
    },
  };
}
