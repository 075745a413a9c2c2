import type { Kysely } from 'kysely';
import type { CallReportsTable, Database } from '../db/schema.ts';

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
}

export type TimestampColumn = 'call_initiated_at' | 'call_answered_at' | 'call_ended_at' | 'guest_exit_at';

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
}

export class DuplicateCallId extends Error {}

export function createCallReportsRepository(db: Kysely<Database>) {
  return {
    /** Throws DuplicateCallId when call_id exists (one statement: the unique index decides, races included). */
    async add(r: NewCallReport): Promise<number> {
      const row = await db
        .insertInto('call_reports')
        .values({
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
        })
        .onConflict((oc) => oc.column('call_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) throw new DuplicateCallId(r.callId);
      return row.id;
    },

    async byId(id: number) {
      return (await db.selectFrom('call_reports').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async byCallId(callId: string) {
      return (await db.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirst()) ?? null;
    },

    async setTimestamps(id: number, columns: TimestampColumn[], now: number): Promise<void> {
      if (columns.length === 0) return;
      const values: Partial<Record<TimestampColumn, number>> = {};
      for (const c of columns) values[c] = now;
      await db.updateTable('call_reports').set(values).where('id', '=', id).execute();
    },

    async patch(id: number, patch: ReportPatch): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await db.updateTable('call_reports').set(patch).where('id', '=', id).execute();
    },

    /** Calls opened since `since` and not ended, in the given assignments (newest last). */
    async openCalls(companyId: number, assignmentIds: number[], since: number): Promise<OpenCallRow[]> {
      if (assignmentIds.length === 0) return [];
      const rows = await db
        .selectFrom('call_reports')
        .innerJoin('assignments', 'assignments.id', 'call_reports.assignment_id')
        .select([
          'call_reports.id',
          'call_reports.call_id',
          'call_reports.guest_username',
          'call_reports.assignment_id',
          'assignments.name',
          'call_reports.room_jid',
          'call_reports.created_at',
        ])
        .where('call_reports.company_id', '=', companyId)
        .where('call_reports.assignment_id', 'in', assignmentIds)
        .where('call_reports.created_at', '>=', since)
        .where('call_reports.call_ended_at', 'is', null)
        .where('call_reports.room_jid', 'is not', null)
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
      }));
    },
  };
}
export type CallReportsRepository = ReturnType<typeof createCallReportsRepository>;
