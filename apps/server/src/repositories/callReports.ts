import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotQuery, hotStatement, type HotStatement } from '../db/hotStatements.ts';
import type { CallReportsTable, Database } from '../db/schema.ts';
import { adminDb } from './adminTables.ts';

/**
 * Whether a guest (by username) or a guest room (by JID) still has an open call: neither ended nor left,
 * opened since `since` (LOBBY_OPEN_CALL_HOURS). What may not go while it is open: the guest's rooms.
 */
export async function hasOpenCall(
  db: Kysely<Database>,
  by: { guest_username: string } | { room_jid: string },
  since: number,
): Promise<boolean> {
  const [column, value] = 'guest_username' in by ? (['guest_username', by.guest_username] as const) : (['room_jid', by.room_jid] as const);
  const open = await db
    .selectFrom('call_reports')
    .select('id')
    .where(column, '=', value)
    .where('call_ended_at', 'is', null)
    .where('guest_exit_at', 'is', null)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return open !== undefined;
}

export interface NewCallReport {
  callId: string;
  companyId: number;
  guestUsername: string;
  assignmentId: number | null;
  roomJid: string | null;
  source: string;
  appointmentReference: string | null;
  serviceType: string | null;
  status: CallReportsTable['status'];
  now: number;
  /** hold-call: the first call of the chain and the call this one replaces */
  originCallId?: string;
  previousCallId?: string;
  /** the guest's position (strings); empty strings are stored as unknown */
  location?: { latitude: string; longitude: string } | null;
  /** the keyed hash of the address the call was opened from (services/openCalls.ts) */
  openedFrom?: string | null;
}

export type TimestampColumn = 'call_initiated_at' | 'call_answered_at' | 'call_ended_at' | 'guest_exit_at';
const TIMESTAMP_COLUMNS: readonly TimestampColumn[] = ['call_initiated_at', 'call_answered_at', 'call_ended_at', 'guest_exit_at'];

export interface ReportPatch {
  success?: number | null;
  guest_local_sdp?: string;
  guest_remote_sdp?: string;
  agent?: string;
  service_type?: string;
}

export interface OpenCallRow {
  reportId: number;
  callId: string;
  guestUsername: string;
  assignmentId: number;
  assignmentName: string;
  room: string;
  openedAt: number;
  /** the XMPP username of the appointment's agent when the call is an appointment call */
  appointmentAgent: string | null;
}

export class DuplicateCallId extends Error {}

const ADD_COLUMNS = [
  'call_id',
  'company_id',
  'guest_username',
  'assignment_id',
  'room_jid',
  'source',
  'appointment_reference',
  'service_type',
  'status',
  'call_initiated_at',
  'created_at',
  'origin_call_id',
  'previous_call_id',
  'latitude',
  'longitude',
  'opened_from',
] as const;
const ADD_SQL = `insert into call_reports (${ADD_COLUMNS.join(', ')}) values (${ADD_COLUMNS.map(() => '?').join(', ')}) on conflict (call_id) do nothing returning id`;

/**
 * The company's condition on a chain's lookups, as `+company_id`: a filter on the rows found, never the way
 * to find them. SQLite otherwise looked up `company_id = ? and (call_id = ? or origin_call_id = ?)` by the
 * company's index, reading every report of the company (≈ 170 µs per rating at 50 000 calls in bench/api,
 * growing with them); with it, the call id's unique index and the origin index (test/db/indexes.test.ts).
 */
const ofCompany = (companyId: number) => sql<boolean>`+${sql.ref('company_id')} = ${companyId}`;

/** Whether an agent took a call of the chain that began with `rootCallId` (see chainAnswered). */
export function chainAnsweredQuery(db: Kysely<Database>, companyId: number, rootCallId: string) {
  return db
    .selectFrom('call_reports')
    .select('id')
    .where((eb) => eb.or([eb('call_id', '=', rootCallId), eb('origin_call_id', '=', rootCallId)]))
    .where(ofCompany(companyId))
    .where('agent_answered_at', 'is not', null);
}

/** The reports of the chain that began with `originCallId`, of one company (see chain). */
export function chainQuery(db: Kysely<Database>, companyId: number, originCallId: string) {
  return db
    .selectFrom('call_reports')
    .selectAll()
    .where((eb) => eb.or([eb('call_id', '=', originCallId), eb('origin_call_id', '=', originCallId)]))
    .where(ofCompany(companyId))
    .orderBy('created_at')
    .orderBy('id');
}

/**
 * A company's open calls (accepted, not ended, opened since `since`, not continued by a resumed call), to
 * be narrowed by `find`, the index that finds them. The opening time is a filter (`+created_at`): by the
 * company's (company_id, created_at) index each new call read every report of the company's last hours
 * (≈ 590 µs per call in bench/api), and the company is a filter too when the guest's index finds the rows
 * (test/db/indexes.test.ts).
 */
function openQuery(db: Kysely<Database>, companyId: number, since: number, find: 'guest' | 'address') {
  return db
    .selectFrom('call_reports as r')
    .where(find === 'guest' ? ofCompany(companyId) : sql<boolean>`${sql.ref('r.company_id')} = ${companyId}`)
    .where('r.status', '=', 'ok')
    .where('r.call_ended_at', 'is', null)
    .where(sql<boolean>`+${sql.ref('r.created_at')} >= ${since}`)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('call_reports as next').select('next.id').whereRef('next.previous_call_id', '=', 'r.call_id'))));
}

/** The guest's open calls, found by the guest's index (see openOfGuest). */
export function openOfGuestQuery(db: Kysely<Database>, companyId: number, guestUsername: string, since: number) {
  return openQuery(db, companyId, since, 'guest').where('r.guest_username', '=', guestUsername).select(['r.id', 'r.call_id', 'r.room_jid']);
}

/** The open calls opened from one address by other guests, found by the open-call address index (see openFromAddress). */
export function openFromAddressQuery(db: Kysely<Database>, companyId: number, openedFrom: string, since: number, exceptGuest: string) {
  return openQuery(db, companyId, since, 'address')
    .where('r.opened_from', '=', openedFrom)
    .where('r.guest_exit_at', 'is', null)
    .where('r.guest_username', '!=', exceptGuest)
    .select((eb) => eb.fn.countAll<number | string>().as('n'));
}

/** `hot`: the Db under `db`, for the statements every request runs, prepared once (db/hotStatements.ts). */
export function createCallReportsRepository(db: Kysely<Database>, hot: Db) {
  const insertReport = hotStatement<{ id: number }>(hot, 'call_reports_add', ADD_SQL, { batch: true, returnsRowid: true });
  // every request of a guest's visit after the add reads its report by one of these (docs/performance.md "Service API")
  const reportById = hotStatement<Selectable<CallReportsTable>>(hot, 'call_reports_by_id', 'select * from call_reports where id = ?');
  const reportByCallId = hotStatement<Selectable<CallReportsTable>>(hot, 'call_reports_by_call_id', 'select * from call_reports where call_id = ?');
  // every call opened looks for the guest's open calls; every rating, whether the call was answered
  const openOfGuest = hotQuery(hot, 'call_reports_open_of_guest', openOfGuestQuery, 3);
  const chainAnswered = hotQuery(hot, 'call_reports_chain_answered', chainAnsweredQuery, 2);
  // the guest's update-timestamp, twice a visit: one statement per set of columns (at most fifteen)
  const setTimestamps = new Map<string, HotStatement<unknown>>();
  const agentAnswered = hotStatement(hot, 'call_reports_agent_answered', 'update call_reports set agent_answered_at = ?, agent = ? where id = ? and agent_answered_at is null', { batch: true });
  return {
    /**
     * Whether an agent took a call of this chain (the first call and its hold/resume continuations), as the
     * server saw it (agent_answered_at: the agent's media grant), never as the guest reported it
     * (call_answered_at, set by the guest's own update-timestamp).
     */
    async chainAnswered(companyId: number, rootCallId: string): Promise<boolean> {
      return (await chainAnswered.first(companyId, rootCallId)) !== undefined;
    },
    /**
     * An agent of the company took the call's media (the first console grant): when, and who (`agentJid`, bare). One statement, so of two grants
     * at once only the first is the answer; a later one (a supervisor joining, a transfer's taker, whose
     * accept sets `agent` itself) changes nothing here.
     */
    async markAgentAnswered(id: number, now: number, agentJid: string): Promise<void> {
      await agentAnswered.first([now, agentJid, id]);
    },
    /**
     * The guest left the queue by booking a time (docs/guest-journey.md "Booking a time instead"): reported
     * as booked, not abandoned. Only a call no agent took; false when it was taken.
     */
    async markBooked(id: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('call_reports')
        .set({ booked_at: now })
        .where('id', '=', id)
        .where('agent_answered_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /**
     * Throws DuplicateCallId when call_id exists (one statement: the unique index decides, races included).
     * Every opened call runs it: prepared once, and on SQLite the inserts of one event-loop turn share a
     * commit (db/hotStatements.ts).
     */
    async add(r: NewCallReport): Promise<number> {
      const values = {
        call_id: r.callId,
        company_id: r.companyId,
        guest_username: r.guestUsername,
        assignment_id: r.assignmentId,
        room_jid: r.roomJid,
        source: r.source,
        appointment_reference: r.appointmentReference,
        service_type: r.serviceType,
        status: r.status,
        call_initiated_at: r.now,
        created_at: r.now,
        origin_call_id: r.originCallId ?? null,
        previous_call_id: r.previousCallId ?? null,
        latitude: r.location?.latitude || null,
        longitude: r.location?.longitude || null,
        opened_from: r.openedFrom ?? null,
      } satisfies Record<(typeof ADD_COLUMNS)[number], unknown>;
      const row = await insertReport.first(ADD_COLUMNS.map((c) => values[c]));
      if (!row) throw new DuplicateCallId(r.callId);
      return row.id;
    },

    async byId(id: number) {
      return (await reportById.first([id])) ?? null;
    },

    async byCallId(callId: string) {
      return (await reportByCallId.first([callId])) ?? null;
    },

    /**
     * Every report of the conversation that began with `originCallId` (held and resumed: POST
     * /call-report/hold-call), the first one included; of one company only.
     */
    async chain(companyId: number, originCallId: string) {
      return chainQuery(db, companyId, originCallId).execute();
    },

    /** The service type of each of these calls of the company (absent: no such report, or none recorded). */
    async serviceTypes(companyId: number, callIds: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (let i = 0; i < callIds.length; i += 500) {
        const rows = await db
          .selectFrom('call_reports')
          .select(['call_id', 'service_type'])
          .where('company_id', '=', companyId)
          .where('call_id', 'in', callIds.slice(i, i + 500))
          .execute();
        for (const r of rows) if (r.service_type !== null) out.set(r.call_id, r.service_type);
      }
      return out;
    },

    async setTimestamps(id: number, columns: TimestampColumn[], now: number): Promise<void> {
      const set = [...new Set(columns)].filter((c) => TIMESTAMP_COLUMNS.includes(c));
      if (set.length === 0) return;
      const key = set.join(', ');
      let stmt = setTimestamps.get(key);
      if (!stmt) {
        stmt = hotStatement(hot, `call_reports_set_${set.join('_')}`, `update call_reports set ${set.map((c) => `${c} = ?`).join(', ')} where id = ?`, { batch: true });
        setTimestamps.set(key, stmt);
      }
      await stmt.first([...set.map(() => now), id]);
    },

    /**
     * The guest's open calls (docs/security.md "Open calls"): accepted, not ended, opened since `since`,
     * not continued by a resumed call (its continuation is the open one). Reads the guest's index.
     */
    async openOfGuest(companyId: number, guestUsername: string, since: number) {
      return openOfGuest.all(companyId, guestUsername, since);
    },

    /**
     * How many open calls of the company were opened from `openedFrom` by guests other than `exceptGuest`
     * and still have their guest (one who left or vanished, services/vanishedGuests.ts, no longer counts).
     */
    async openFromAddress(companyId: number, openedFrom: string, since: number, exceptGuest: string): Promise<number> {
      const r = await openFromAddressQuery(db, companyId, openedFrom, since, exceptGuest).executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /**
     * The server ends these calls for their guest (a newer call replaced them, the guest was blocked): the
     * call and the guest's exit are stamped `now` unless the guest reported them already.
     */
    async endForGuest(ids: number[], now: number): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('call_reports')
        .set((eb) => ({ call_ended_at: now, guest_exit_at: eb.fn.coalesce('guest_exit_at', eb.val(now)) }))
        .where('id', 'in', ids)
        .where('call_ended_at', 'is', null)
        .execute();
    },

    async patch(id: number, patch: ReportPatch): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await db.updateTable('call_reports').set(patch).where('id', '=', id).execute();
    },

    /**
     * Calls opened since `since` and not ended (newest last) that a console user sees: those of the given
     * assignments, except appointment calls of another agent; plus appointment calls booked with
     * `viewerXmpp`, whatever their assignment (an appointment reaches only its agent).
     */
    async openCalls(companyId: number, assignmentIds: number[], since: number, viewerXmpp?: string): Promise<OpenCallRow[]> {
      if (assignmentIds.length === 0 && viewerXmpp === undefined) return [];
      const rows = await adminDb(db)
        .selectFrom('call_reports')
        .innerJoin('assignments', 'assignments.id', 'call_reports.assignment_id')
        .leftJoin('appointments', (j) =>
          j
            .onRef('appointments.reference', '=', 'call_reports.appointment_reference')
            .onRef('appointments.company_id', '=', 'call_reports.company_id'),
        )
        .leftJoin('users as appointment_agent', 'appointment_agent.id', 'appointments.agent_id')
        .select([
          'call_reports.id',
          'call_reports.call_id',
          'call_reports.guest_username',
          'call_reports.assignment_id',
          'assignments.name',
          'call_reports.room_jid',
          'call_reports.created_at',
          'appointment_agent.xmpp_username as appointment_agent',
        ])
        .where('call_reports.company_id', '=', companyId)
        .where('call_reports.created_at', '>=', since)
        .where('call_reports.call_ended_at', 'is', null)
        .where('call_reports.room_jid', 'is not', null)
        // blocked and out-of-quota calls were refused: never offered to an agent
        .where('call_reports.status', '=', 'ok')
        .where((eb) => {
          const mine = viewerXmpp === undefined ? sql<boolean>`1 = 0` : eb('appointment_agent.xmpp_username', '=', viewerXmpp);
          if (assignmentIds.length === 0) return mine;
          return eb.or([
            eb.and([
              eb('call_reports.assignment_id', 'in', assignmentIds),
              eb.or([eb('appointment_agent.xmpp_username', 'is', null), mine]),
            ]),
            mine,
          ]);
        })
        .orderBy('call_reports.created_at')
        .orderBy('call_reports.id')
        .execute();
      return rows.map((r) => ({
        reportId: r.id,
        callId: r.call_id,
        guestUsername: r.guest_username,
        assignmentId: r.assignment_id ?? 0,
        assignmentName: r.name,
        room: r.room_jid ?? '',
        openedAt: r.created_at,
        appointmentAgent: r.appointment_agent ?? null,
      }));
    },
  };
}
export type CallReportsRepository = ReturnType<typeof createCallReportsRepository>;
