import { CallIdParams, ConsoleMediaQuery, DataEnvelope, MediaGrant, MediaStandbyAnswer } from '@lobby/contracts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { mayTakeCall, recordedAgent } from '../../../services/callVisibility.ts';
import { P2P_GRANT, isP2P, p2pJoinRefusal } from '../../../services/callMethod.ts';
import { MediaRoomStillServed, MediaRoomUnavailable } from '../../../services/media/mediaRooms.ts';

/**
 * A console user's media grant (docs/protocol.md "Media room"): the calls of its company that it may take
 * (services/callVisibility.ts mayTakeCall: its own, or one it is shown), with the room's
 * pin and a Janus token for that room alone (the guest's: call-report/media.ts). A grant given is the
 * server's own proof that an agent took the call (call_reports.agent_answered_at, which the rating rule
 * reads; docs/security.md "The rules of a call"), for p2p calls too: the console asks before it answers.
 * `?rejoin=true`: the console's media session was lost (Janus restarted); the room is made again when
 * Janus lost it, never once the server destroyed it (docs/protocol.md "Media session lost"); when no
 * Janus node answers to make it again, 503 (the console goes on claiming its session meanwhile).
 * And its standby token, for no call: a Janus session kept warm before it answers.
 */
export default routes({ access: 'console' }, (app, services) => {
  const { repos } = services;
  app.post(
    '/calls/:callId/media',
    {
      // it writes the call's report, nothing of its company: the company's snapshot stays (plugins/app/services.ts)
      config: { companyUnchanged: true },
      schema: {
        tags: ['console'],
        summary: "A console user's way into a call's media room (answering, joining, following a resume)",
        security: [{ consoleSession: [] }],
        params: CallIdParams,
        querystring: ConsoleMediaQuery,
        response: { 200: DataEnvelope(MediaGrant), ...errors(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const report = await repos.callReports.byCallId(request.params.callId);
      if (!report || report.company_id !== user.companyId) return fail(reply, 404, 'callId: no such call');
      if (!(await mayTakeCall(services, user, report))) return fail(reply, 403, 'callId: this call is not one you may take (not of your assignments)');
      if (report.call_ended_at !== null) return fail(reply, 409, 'callId: this call has ended');
      const jid = `${user.xmppUsername}@${services.config.xmppDomain}`;
      const company = (await services.companySnapshots.get(report.company_id))?.company;
      if (isP2P(company?.settings)) {
        const refusal = p2pJoinRefusal(recordedAgent(report), user.xmppUsername);
        if (refusal) return fail(reply, 409, refusal);
        // the console asks this when it answers, before it opens the Jingle session: the server's sign of an agent
        await repos.callReports.markAgentAnswered(report.id, services.now(), jid);
        services.events.publish('callStats', { companyId: report.company_id });
        return { data: P2P_GRANT };
      }
      const wanted = company?.settings.recordCalls !== false;
      // no recording without the guest's acknowledgement of the notice (docs/security.md "Recording consent")
      const consented = wanted && (await repos.recordingPrivacy.consentOf(report.company_id, report.call_id)) !== null;
      if (wanted && !consented) request.log.warn({ callId: report.call_id }, 'not recorded: the guest did not acknowledge the recording notice');
      let grant;
      try {
        grant = await services.mediaRooms.grantAgent({
          callId: report.call_id,
          companyId: report.company_id,
          username: user.xmppUsername,
          record: consented,
          ...(request.query.rejoin === true ? { rejoin: true, move: request.query.move === true } : {}),
        });
      } catch (error) {
        if (error instanceof MediaRoomUnavailable) return fail(reply, 503, error.message);
        if (error instanceof MediaRoomStillServed) return fail(reply, 409, `move: ${error.message}`);
        throw error;
      }
      if (!grant) return fail(reply, 409, "callId: the guest's media room is not open");
      await repos.callReports.markAgentAnswered(report.id, services.now(), jid);
      services.events.publish('callStats', { companyId: report.company_id });
      return { data: grant };
    },
  );

  // A console's warm Janus session (docs/security.md "Media plane"): its token names the user as an agent
  // and no room, so it opens a session and its videoroom handles but joins nothing; it lives as long as
  // a room token (a warm session may become a long call, and Janus refuses a keepalive with an expired token)
  app.post(
    '/media/standby',
    {
      schema: {
        tags: ['console'],
        summary: "A console user's standby Janus token: a session and its handles kept warm before it answers, in no room",
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(MediaStandbyAnswer), ...errors(401) },
      },
    },
    async (request) => {
      const user = consoleUserOf(request);
      if (!services.config.mediaStandby) return { data: { standby: 'off' as const } };
      // a p2p company's calls never touch the media server: no session of its agents is kept there
      if (isP2P((await repos.companies.byId(user.companyId))?.settings)) return { data: P2P_GRANT };
      const { token, expiresIn } = services.janusTokens.mint(null, services.config.openCallHours * 3600, {
        role: 'agent',
        username: user.xmppUsername,
      });
      return { data: { token, expires_in: expiresIn } };
    },
  );
});
