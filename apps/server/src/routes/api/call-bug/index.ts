import { CallBugBody, CreatedId, DataEnvelope } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { ownsCallId } from '../../../services/callOwnership.ts';
import { routes } from '../../../http/routes.ts';

const MAX_PART = 200_000;
const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/**
 * POST /api/call-bug/by-guest: a call stage failed (SPEC.md §7). Kept even when the call was never
 * reported (the failure may be why), but only for the guest's own call ids.
 */
function callBugRoutes(app: App, services: Services): void {
  app.post(
    '/by-guest',
    {
      // The log can be large; the schema caps each part.
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['call report'],
        summary: "Store a guest's report of a failed call stage, with its log, state and browser info",
        security: [{ guestBearer: [] }],
        body: CallBugBody,
        response: { 201: DataEnvelope(CreatedId), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      const parts = { guest_log: text(b.guest_log), guest_state: text(b.guest_state), guest_client_info: text(b.guest_client_info) };
      for (const [name, value] of Object.entries(parts)) {
        if (value.length > MAX_PART) return fail(reply, 400, `${name}: at most ${MAX_PART} characters`);
      }
      if (!ownsCallId(guest, b.call_id)) return fail(reply, 403, 'call_id: must be <your username>--<suffix>');
      const report = await services.repos.callReports.byCallId(b.call_id);
      if (report && (report.company_id !== guest.companyId || report.guest_username !== guest.username)) {
        return fail(reply, 403, 'call_id: not your call');
      }
      const id = await services.repos.callBugs.add({
        companyId: guest.companyId,
        callId: b.call_id,
        guestUsername: guest.username,
        guestId: b.guest_id ?? null,
        guestLog: parts.guest_log,
        guestState: parts.guest_state,
        guestClientInfo: parts.guest_client_info,
        now: services.now(),
      });
      return reply.code(201).send({ data: { id } });
    },
  );
}

export default routes({ access: 'guest' }, callBugRoutes);
