import { CreatedId, DataEnvelope, HoldCallBody } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { DuplicateCallId } from '../../../repositories/callReports.ts';
import { blockedCheck } from '../../../services/guestChecks.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { ownedReport, ownsCallId } from '../../../services/callOwnership.ts';
import { endCallsForGuest, openSince } from '../../../services/openCalls.ts';
import { routes } from '../../../http/routes.ts';

/**
 * POST /api/call-report/hold-call: resuming a held call moves the guest to a new call id. The new call's
 * report continues the current one (same assignment and room unless told otherwise) and remembers the first
 * call of the chain. Only an accepted call (status ok) can be continued, so the quota, schedule, geofence and
 * welcome-form rules that call-report/add applied to the first call hold for the chain (a blocked or
 * out-of-quota call cannot be laundered into an ok one); a guest blocked or a company deactivated since is
 * refused here.
 */
function holdCallRoute(app: App, services: Services): void {
  const { repos } = services;
  app.post(
    '/hold-call',
    {
      schema: {
        tags: ['call report'],
        summary: 'Link the report of a resumed call (new_call_id) to the held one (current_call_id) and the first one (origin_call_id)',
        security: [{ guestBearer: [] }],
        body: HoldCallBody,
        response: { 201: DataEnvelope(CreatedId), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const body = request.body;
      if (body.guest_username !== undefined && body.guest_username !== guest.username) {
        return fail(reply, 403, 'guest_username: not the guest of your access_token');
      }
      if (!ownsCallId(guest, body.new_call_id)) return fail(reply, 403, 'new_call_id: must be <your username>--<suffix>');
      if (!ownsCallId(guest, body.origin_call_id)) return fail(reply, 403, 'origin_call_id: must be <your username>--<suffix>');
      const current = await ownedReport(services, reply, guest, body.current_call_id);
      if (!current) return reply;
      const origin = body.origin_call_id === body.current_call_id ? current : await repos.callReports.byCallId(body.origin_call_id);
      if (!origin) return fail(reply, 404, 'origin_call_id: no report for this call');
      if (origin.company_id !== guest.companyId || origin.guest_username !== guest.username) return fail(reply, 403, 'origin_call_id: not your call');
      if (current.status !== 'ok' || origin.status !== 'ok') return fail(reply, 403, `current_call_id: the call was not accepted (${current.status !== 'ok' ? current.status : origin.status})`);
      if (!(await repos.companies.byId(guest.companyId))?.activated) return fail(reply, 403, 'company: not activated');
      if ((await blockedCheck(services.db.kysely, { companyId: guest.companyId, guestUsername: guest.username, assignmentId: null, now: services.now() })) !== 'ok') {
        return fail(reply, 403, 'guest_username: blocked by the company');
      }

      let assignmentId = current.assignment_id;
      let roomJid = current.room_jid;
      if (body.assignment_id !== undefined && body.assignment_id !== current.assignment_id) {
        const assignment = (await repos.companies.assignments(guest.companyId)).find((a) => a.id === body.assignment_id);
        if (!assignment) return fail(reply, 400, 'assignment_id: no such assignment in this company');
        assignmentId = assignment.id;
        roomJid = (await repos.guests.rooms(guest.username)).find((r) => r.assignmentId === assignment.id)?.room ?? null;
      }
      try {
        const id = await repos.callReports.add({
          callId: body.new_call_id,
          companyId: guest.companyId,
          guestUsername: guest.username,
          assignmentId,
          roomJid,
          source: current.source,
          appointmentReference: current.appointment_reference,
          serviceType: current.service_type,
          status: 'ok',
          now: services.now(),
          originCallId: origin.origin_call_id ?? origin.call_id,
          previousCallId: current.call_id,
          // the resumed call is the same conversation: the guest's position carries over
          location: current.latitude && current.longitude ? { latitude: current.latitude, longitude: current.longitude } : null,
        });
        // the held call's media room is over: the conversation goes on in the new call's room
        void services.mediaRooms.end(current.call_id);
        // a guest has one open call (services/openCalls.ts): this one, the continuation of the held call
        const others = (await repos.callReports.openOfGuest(guest.companyId, guest.username, openSince(services))).filter((c) => c.id !== id);
        await endCallsForGuest(services, others);
        return await reply.code(201).send({ data: { id } });
      } catch (err) {
        if (err instanceof DuplicateCallId) return fail(reply, 409, 'new_call_id: this call was already reported');
        throw err;
      }
    },
  );
}

export default routes({ access: 'guest' }, holdCallRoute);
