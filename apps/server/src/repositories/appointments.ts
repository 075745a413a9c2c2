import crypto from 'node:crypto';
import type { Appointment } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { adminDb } from './adminTables.ts';

/** Unambiguous lowercase letters and digits (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** 12 characters ≈ 59 bits: a link that cannot be guessed. */
export function newReference(): string {
  const bytes = crypto.randomBytes(12);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** A unique index refused the row: SQLite's constraint error or PostgreSQL's 23505. */
function uniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || (typeof err.message === 'string' && err.message.includes('UNIQUE constraint failed'));
}

export function createAppointmentsRepository(base: Kysely<Database>, now: () => number) {
  const db = adminDb(base);
  const select = () =>
    db
      .selectFrom('appointments')
      .innerJoin('users', 'users.id', 'appointments.agent_id')
      .select([
        'appointments.id',
        'appointments.reference',
        'appointments.agent_id',
        'users.name as agent_name',
        'appointments.starts_at',
        'appointments.duration_minutes',
        'appointments.note',
        'appointments.created_at',
        'appointments.call_type',
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;
  const toApi = (r: Row): Appointment => ({
    id: r.id,
    reference: r.reference,
    agentId: r.agent_id,
    agentName: r.agent_name,
    startsAt: new Date(Number(r.starts_at)).toISOString(),
    durationMinutes: r.duration_minutes,
    note: r.note,
    link: `/appointment/${r.reference}`,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    callType: r.call_type ?? null,
  });

  /** One appointment row: made in the console (`createdBy`) or booked by a guest (`bookedBy`, `callType`). */
  const insert = async (
    companyId: number,
    a: {
      agentId: number;
      startsAt: number;
      durationMinutes: number;
      note: string;
      createdBy: number | null;
      bookedBy: string | null;
      bookedFrom: string | null;
      callType: 'video' | 'voice' | null;
    },
  ): Promise<number> => {
    const row = await db
      .insertInto('appointments')
      .values({
        company_id: companyId,
        reference: newReference(),
        agent_id: a.agentId,
        starts_at: a.startsAt,
        duration_minutes: a.durationMinutes,
        note: a.note,
        created_by: a.createdBy,
        created_at: now(),
        booked_by: a.bookedBy,
        booked_from: a.bookedFrom,
        call_type: a.callType,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  return {
    /** The company's appointments from `since` on (ordered by time); only one agent's when `agentId` is given. */
    async list(companyId: number, since: number, agentId?: number): Promise<Appointment[]> {
      let q = select().where('appointments.company_id', '=', companyId).where('appointments.starts_at', '>=', since);
      if (agentId !== undefined) q = q.where('appointments.agent_id', '=', agentId);
      return (await q.orderBy('appointments.starts_at').orderBy('appointments.id').limit(500).execute()).map(toApi);
    },

    async byId(companyId: number, id: number): Promise<Appointment | null> {
      const r = await select().where('appointments.company_id', '=', companyId).where('appointments.id', '=', id).executeTakeFirst();
      return r ? toApi(r) : null;
    },

    /** Any company's appointment by its reference (the guest's link); null when unknown. */
    async byReference(reference: string): Promise<(Appointment & { companyId: number; agentXmppUsername: string }) | null> {
      const r = await select()
        .select(['appointments.company_id', 'users.xmpp_username'])
        .where('appointments.reference', '=', reference)
        .executeTakeFirst();
      return r ? { ...toApi(r), companyId: r.company_id, agentXmppUsername: r.xmpp_username } : null;
    },

    async agentInCompany(companyId: number, agentId: number): Promise<boolean> {
      const r = await db.selectFrom('users').select('id').where('id', '=', agentId).where('company_id', '=', companyId).executeTakeFirst();
      return r !== undefined;
    },

    async create(
      companyId: number,
      a: { agentId: number; startsAt: number; durationMinutes: number; note: string; createdBy: number },
    ): Promise<Appointment> {
      const created = await this.byId(companyId, await insert(companyId, { ...a, bookedBy: null, bookedFrom: null, callType: null }));
      if (!created) throw new Error('appointment vanished');
      return created;
    },

    /** The company's agents (role agent): those a guest may book (docs/guest-journey.md "Booking a time instead"). */
    async agentIds(companyId: number): Promise<number[]> {
      const rows = await db.selectFrom('users').select('id').where('company_id', '=', companyId).where('role', '=', 'agent').orderBy('id').execute();
      return rows.map((r) => r.id);
    },

    /** The company's appointments that may overlap [from, to) (none lasts longer than 8 hours). */
    async bookedTimes(companyId: number, from: number, to: number): Promise<Array<{ agentId: number; startsAt: number; durationMinutes: number }>> {
      const rows = await db
        .selectFrom('appointments')
        .select(['agent_id', 'starts_at', 'duration_minutes'])
        .where('company_id', '=', companyId)
        .where('starts_at', '>=', from - 8 * 3600_000)
        .where('starts_at', '<', to)
        .execute();
      return rows.map((r) => ({ agentId: r.agent_id, startsAt: Number(r.starts_at), durationMinutes: r.duration_minutes }));
    },

    /**
     * A guest's booking; null when the agent's time was taken meanwhile (the unique index of migration
     * 0017 decides between two requests, on whichever server instance each arrived).
     */
    async book(
      companyId: number,
      a: { agentId: number; startsAt: number; durationMinutes: number; note: string; callType: 'video' | 'voice'; bookedBy: string; bookedFrom: string },
    ): Promise<Appointment | null> {
      let id: number;
      try {
        id = await insert(companyId, { ...a, createdBy: null });
      } catch (e) {
        if (uniqueViolation(e)) return null;
        throw e;
      }
      return this.byId(companyId, id);
    },

    /** How many of the company's guest bookings not yet begun were made by this guest, and from this address. */
    async upcomingBookings(companyId: number, guestUsername: string, bookedFrom: string, now: number): Promise<{ byGuest: number; fromAddress: number }> {
      const rows = await db
        .selectFrom('appointments')
        .select(['booked_by', 'booked_from'])
        .where('company_id', '=', companyId)
        .where('starts_at', '>=', now)
        .where((eb) => eb.or([eb('booked_by', '=', guestUsername), eb('booked_from', '=', bookedFrom)]))
        .execute();
      return {
        byGuest: rows.filter((r) => r.booked_by === guestUsername).length,
        fromAddress: rows.filter((r) => r.booked_from === bookedFrom).length,
      };
    },

    async remove(companyId: number, id: number): Promise<boolean> {
      const r = await db.deleteFrom('appointments').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type AppointmentsRepository = ReturnType<typeof createAppointmentsRepository>;
