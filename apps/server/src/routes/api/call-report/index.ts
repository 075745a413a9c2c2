import {
  CallReportAddBody,
  CallReportAdded,
  CallReportTimestampBody,
  CallReportUpdateBody,
  CallReportUpdated,
  DataEnvelope,
  guestRoomName,
  parseCallId,
} from '@lobby/contracts';
import type { FastifyReply } from 'fastify';
import { guestOf } from '../../../plugins/app/auth.ts';
import { callRefusal } from '../../../services/callRules.ts';
import { createAppointmentsRepository } from '../../../repositories/appointments.ts';
import { DuplicateCallId } from '../../../repositories/callReports.ts';
import type { ReportPatch, TimestampColumn } from '../../../repositories/callReports.ts';
import type { Services } from '../../../services/index.ts';
import type { GuestClaims } from '../../../services/tokens.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../errors.ts';
import { vanishedGuestSweep } from './vanished.ts';

/** The call id must belong to the caller: `<caller's username>--<suffix>`. */
export function ownsCallId(guest: GuestClaims, callId: string): boolean {
  const parsed = parseCallId(callId);
  return parsed !== null && parsed.username === guest.username;
}

/** The report of a call id if the guest owns it; otherwise the error was sent and null returned. */
export async function ownedReport(services: Services, reply: FastifyReply, guest: GuestClaims, callId: string) {
  if (!ownsCallId(guest, callId)) {
    await fail(reply, 403, 'call_id: must be <your username>--<suffix>');
    return null;
  }
  const report = await services.repos.callReports.byCallId(callId);
  if (!report) {
    await fail(reply, 404, 'call_id: no report for this call, add it first');
    return null;
  }
  if (report.company_id !== guest.companyId || report.guest_username !== guest.username) {
    await fail(reply, 403, 'call_id: not your call');
    return null;
  }
  return report;
}

const TIMESTAMP_FLAGS: Record<string, TimestampColumn> = {
  call_initiated_timestamp: 'call_initiated_at',
  call_answered_timestamp: 'call_answered_at',
  guest_exit_timestamp: 'guest_exit_at',
  call_ended_timestamp: 'call_ended_at',
};

export function callReportRoutes(app: App, services: Services): void {
  const { repos, config } = services;
  vanishedGuestSweep(app, services);
  const appointments = createAppointmentsRepository(services.db.kysely, services.now);

  app.post(
    '/api/call-report/add',
    {
      config: { access: 'guest' },
      schema: {
        tags: ['call report'],
        summary: 'Open the report of a new call; status ok | outOfQuota | blocked decides whether the call goes on',
        security: [{ guestBearer: [] }],
        body: CallReportAddBody,
        response: { 201: DataEnvelope(CallReportAdded), ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const body = request.body;
      if (!ownsCallId(guest, body.call_id)) return fail(reply, 403, 'call_id: must be <your username>--<suffix>');
      if (body.company !== guest.companyId) return fail(reply, 403, 'company: not the company of your access_token');
      const refusal = await callRefusal(services, guest, body.service_type ?? 'talk');
      if (refusal) return fail(reply, 403, refusal);

      const assignments = await repos.companies.assignments(guest.companyId);
      let assignment = assignments[0] ?? null;
      if (body.assignment_id !== undefined) {
        assignment = assignments.find((a) => a.id === body.assignment_id) ?? null;
        if (!assignment) return fail(reply, 400, 'assignment_id: no such assignment in this company');
      }
      // An appointment call: the reference must be one of this company's; its agent (who may serve another
      // assignment) becomes an admin of the guest's room, so it can join it, and only it is told of the call.
      let appointmentAgent: string | null = null;
      if (body.appointment_reference !== undefined) {
        const appointment = await appointments.byReference(body.appointment_reference);
        if (!appointment || appointment.companyId !== guest.companyId) {
          return fail(reply, 400, 'appointment_reference: no such appointment in this company');
        }
        appointmentAgent = appointment.agentXmppUsername;
      }
      const now = services.now();
      const status = await services.reportStatus(services.db.kysely, {
        companyId: guest.companyId,
        guestUsername: guest.username,
        assignmentId: assignment?.id ?? null,
        now,
      });
      const room = assignment ? `${guestRoomName(assignment.id, guest.username)}@${config.xmppMucDomain}` : null;
      let id: number;
      try {
        id = await repos.callReports.add({
          callId: body.call_id,
          companyId: guest.companyId,
          guestUsername: guest.username,
          assignmentId: assignment?.id ?? null,
          roomJid: room,
          source: body.source,
          appointmentReference: body.appointment_reference ?? null,
          serviceType: body.service_type ?? null,
          status,
          now,
          location: body.location ?? null,
        });
      } catch (err) {
        if (err instanceof DuplicateCallId) return fail(reply, 409, 'call_id: this call was already reported');
        throw err;
      }
      // before any agent hears of the call, so before any media can be recorded
      if (status === 'ok' && body.recording_acknowledged === true) await repos.recordingPrivacy.setConsent(body.call_id, now);
      if (status === 'ok' && appointmentAgent && assignment) {
        await services.ejabberd.setAffiliation(
          guestRoomName(assignment.id, guest.username),
          `${appointmentAgent}@${config.xmppDomain}`,
          'admin',
        );
      }
      if (status === 'ok') {
        services.events.publish('callOpened', {
          ...(appointmentAgent ? { appointmentAgent } : {}),
          companyId: guest.companyId,
          assignmentId: assignment?.id ?? null,
          assignmentName: assignment?.name ?? null,
          room,
          guestUsername: guest.username,
          callId: body.call_id,
          reportId: id,
          openedAt: now,
        });
        // round robin (not for appointments, which have their agent): offer the call to one agent at a time
        if (!appointmentAgent && assignment) {
          const company = await repos.companies.byId(guest.companyId);
          if (company?.settings.roundRobin) {
            services.roundRobin.callOpened({
              callId: body.call_id,
              companyId: guest.companyId,
              assignmentId: assignment.id,
              offerSeconds: company.settings.roundRobinOfferSeconds,
            });
          }
        }
      }
      return reply.code(201).send({ data: { id, status } });
    },
  );

  // navigator.sendBeacon(url, string) sends text/plain;charset=UTF-8: parse it as JSON on this route only.
  app.register((scope, _opts, done) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, next) => {
      try {
        next(null, JSON.parse(body as string));
      } catch {
        const err = new Error('body: not valid JSON') as Error & { statusCode: number };
        err.statusCode = 400;
        next(err, undefined);
      }
    });
    (scope as App).put(
      '/api/call-report/update-timestamp',
      {
        config: { access: 'guestBeacon' },
        schema: {
          tags: ['call report'],
          summary: 'Set the flagged timestamps of a call to now (sendBeacon: text/plain JSON with access_token in the body)',
          consumes: ['application/json', 'text/plain'],
          security: [{ guestBearer: [] }],
          body: CallReportTimestampBody,
          response: { 200: DataEnvelope(CallReportUpdated), ...errors(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const guest = guestOf(request);
        const report = await ownedReport(services, reply, guest, request.body.call_id);
        if (!report) return reply;
        const body = request.body as Record<string, unknown>;
        const flags = Object.keys(TIMESTAMP_FLAGS).filter((f) => body[f] === true);
        // answered, ended or left: round robin stops offering the call
        if (flags.some((f) => f !== 'call_initiated_timestamp')) services.roundRobin.callClosed(report.call_id);
        // the call is over: the server, which alone holds the room's secret, destroys its media room
        if (flags.includes('call_ended_timestamp')) void services.mediaRooms.end(report.call_id);
        await repos.callReports.setTimestamps(
          report.id,
          flags.map((f) => TIMESTAMP_FLAGS[f] as TimestampColumn),
          services.now(),
        );
        return { data: { id: report.id, updated: flags } };
      },
    );
    done();
  });

  app.put(
    '/api/call-report/update',
    {
      config: { access: 'guest' },
      schema: {
        tags: ['call report'],
        summary: 'Change fields of a call report (on ICE failure: success false and an SDP)',
        security: [{ guestBearer: [] }],
        body: CallReportUpdateBody,
        response: { 200: DataEnvelope(CallReportUpdated), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const report = await ownedReport(services, reply, guest, request.body.call_id);
      if (!report) return reply;
      const { call_id: _callId, success, ...rest } = request.body;
      const patch: ReportPatch = { ...rest };
      if (success !== undefined) patch.success = success ? 1 : 0;
      await repos.callReports.patch(report.id, patch);
      return { data: { id: report.id, updated: Object.keys(request.body).filter((k) => k !== 'call_id') } };
    },
  );
}
