import { CallIdParams, DataEnvelope, GuestMediaBody, MediaGrant } from '@lobby/contracts';
import { consoleUserOf, guestOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../errors.ts';
import { ownedReport } from '../call-report/index.ts';

/**
 * The media grants (docs/protocol.md "Media room"): the only way to a call's Janus room. The guest gets
 * its own call's; a console user gets the calls of its company. Both answers carry the room's pin and a
 * Janus token for that room alone; nobody else learns either.
 */
export function mediaRoutes(app: App, services: Services): void {
  const { repos } = services;
  // rooms whose call never reported its end are destroyed once no token for them is valid
  let sweeper: NodeJS.Timeout | null = null;
  app.addHook('onReady', (done) => {
    sweeper = setInterval(() => void services.mediaRooms.sweepStale().catch(() => undefined), 10 * 60_000);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    if (sweeper) clearInterval(sweeper);
    done();
  });

  app.post(
    '/api/call-report/media',
    {
      config: { access: 'guest' },
      schema: {
        tags: ['call report'],
        summary: "The guest's way into its call's media room (created by the server on first use)",
        security: [{ guestBearer: [] }],
        body: GuestMediaBody,
        response: { 200: DataEnvelope(MediaGrant), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const report = await ownedReport(services, reply, guest, request.body.call_id);
      if (!report) return reply;
      if (report.status !== 'ok') return fail(reply, 403, `call_id: this call is ${report.status}`);
      if (report.call_ended_at !== null) return fail(reply, 409, 'call_id: this call has ended');
      const grant = await services.mediaRooms.grantGuest({
        callId: report.call_id,
        companyId: report.company_id,
        username: guest.username,
        webview: request.body.webview === true,
      });
      return { data: grant };
    },
  );

  app.post(
    '/api/console/calls/:callId/media',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: "A console user's way into a call's media room (answering, joining, following a resume)",
        security: [{ consoleSession: [] }],
        params: CallIdParams,
        response: { 200: DataEnvelope(MediaGrant), ...errors(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const report = await repos.callReports.byCallId(request.params.callId);
      if (!report || report.company_id !== user.companyId) return fail(reply, 404, 'callId: no such call');
      if (report.call_ended_at !== null) return fail(reply, 409, 'callId: this call has ended');
      const company = await repos.companies.byId(report.company_id);
      const wanted = company?.settings.recordCalls !== false;
      // no recording without the guest's acknowledgement of the notice (docs/security.md "Recording consent")
      const consented = wanted && (await repos.recordingPrivacy.consentOf(report.company_id, report.call_id)) !== null;
      if (wanted && !consented) request.log.warn({ callId: report.call_id }, 'not recorded: the guest did not acknowledge the recording notice');
      const grant = await services.mediaRooms.grantAgent({
        callId: report.call_id,
        companyId: report.company_id,
        username: user.xmppUsername,
        record: consented,
      });
      if (!grant) return fail(reply, 409, "callId: the guest's media room is not open");
      return { data: grant };
    },
  );
}
