import {
  CallReportAddBody,
  CallReportAdded,
  CallReportTimestampBody,
  CallReportUpdateBody,
  CallReportUpdated,
  DataEnvelope,
} from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { ownedReport } from '../../../services/callOwnership.ts';
import { openCall } from '../../../services/callOpening.ts';
import { createKeyedQueue } from '../../../services/keyedQueue.ts';
import type { ReportPatch, TimestampColumn } from '../../../repositories/callReports.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const TIMESTAMP_FLAGS: Record<string, TimestampColumn> = {
  call_initiated_timestamp: 'call_initiated_at',
  call_answered_timestamp: 'call_answered_at',
  guest_exit_timestamp: 'guest_exit_at',
  call_ended_timestamp: 'call_ended_at',
};

function callReportRoutes(app: App, services: Services): void {
  const { repos } = services;
  // one guest's openings one at a time: each ends the open call the one before it opened (callOpening.ts)
  const oneAtATime = createKeyedQueue();

  app.post(
    '/add',
    {
      schema: {
        tags: ['call report'],
        summary: 'Open the report of a new call; status ok | outOfQuota | blocked decides whether the call goes on',
        security: [{ guestBearer: [] }],
        body: CallReportAddBody,
        response: { 201: DataEnvelope(CallReportAdded), ...errors(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const opened = await oneAtATime(`${guest.companyId}:${guest.username}`, () => openCall(services, guest, request.body, request.ip));
      if ('refused' in opened) return fail(reply, opened.refused.statusCode, opened.refused.message);
      return reply.code(201).send({ data: opened.added });
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
      '/update-timestamp',
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
        if (flags.some((f) => f !== 'call_initiated_timestamp')) await services.roundRobin.callClosed(report.call_id);
        // the call is over: the server, which alone holds the room's secret, destroys its media room
        if (flags.includes('call_ended_timestamp')) void services.mediaRooms.end(report.call_id);
        await repos.callReports.setTimestamps(
          report.id,
          flags.map((f) => TIMESTAMP_FLAGS[f] as TimestampColumn),
          services.now(),
        );
        if (flags.length) services.events.publish('callStats', { companyId: report.company_id });
        return { data: { id: report.id, updated: flags } };
      },
    );
    done();
  });

  app.put(
    '/update',
    {
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
      // Who answered is the server's record once an agent took the call's media (markAgentAnswered; a
      // transfer's accept): the guest's word no longer changes it, and `updated` does not list it.
      if (report.agent_answered_at !== null) delete patch.agent;
      await repos.callReports.patch(report.id, patch);
      const updated = Object.keys(request.body).filter((k) => k !== 'call_id' && (k !== 'agent' || 'agent' in patch));
      return { data: { id: report.id, updated } };
    },
  );
}

export default routes({ access: 'guest' }, callReportRoutes);
