import { DataEnvelope, GuestMediaBody, MediaGrant } from '@lobby/contracts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { ownedReport } from '../../../services/callOwnership.ts';
import { P2P_GRANT, isP2P } from '../../../services/callMethod.ts';
import { MediaRoomClosed, MediaRoomStillServed, MediaRoomUnavailable } from '../../../services/media/mediaRooms.ts';

/**
 * The guest's media grant (docs/protocol.md "Media room"): the only way to its own call's Janus room. The
 * answer carries the room's pin and a Janus token for that room alone (the console's: console/media.ts).
 * `rejoin`: the guest's media session was lost (Janus restarted); the room is made again when Janus lost
 * it, never once the server destroyed it (docs/protocol.md "Media session lost"); when no Janus node
 * answers to make it again, 503 (the guest goes on claiming its session meanwhile).
 */
export default routes({ access: 'guest' }, (app, services) => {
  app.post(
    '/media',
    {
      schema: {
        tags: ['call report'],
        summary: "The guest's way into its call's media room (created by the server on first use)",
        security: [{ guestBearer: [] }],
        body: GuestMediaBody,
        response: { 200: DataEnvelope(MediaGrant), ...errors(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const report = await ownedReport(services, reply, guest, request.body.call_id);
      if (!report) return reply;
      if (report.status !== 'ok') return fail(reply, 403, `call_id: this call is ${report.status}`);
      if (report.call_ended_at !== null) return fail(reply, 409, 'call_id: this call has ended');
      // a p2p company's call has no media room: the guest is told to open a Jingle session instead
      if (isP2P((await services.repos.companies.byId(report.company_id))?.settings)) return { data: P2P_GRANT };
      try {
        const grant = await services.mediaRooms.grantGuest({
          callId: report.call_id,
          companyId: report.company_id,
          username: guest.username,
          webview: request.body.webview === true,
          ...(request.body.rejoin === true ? { rejoin: true, move: request.body.move === true } : {}),
        });
        return { data: grant };
      } catch (error) {
        if (error instanceof MediaRoomClosed) return fail(reply, 409, "call_id: this call's media room was closed (the call ended or was put on hold)");
        if (error instanceof MediaRoomUnavailable) return fail(reply, 503, error.message);
        if (error instanceof MediaRoomStillServed) return fail(reply, 409, `move: ${error.message}`);
        throw error;
      }
    },
  );
});
