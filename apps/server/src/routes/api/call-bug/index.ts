import { CallBugBody, CreatedId, DataEnvelope } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { ownsCallId } from '../../../services/callOwnership.ts';
import { createCallBugRetentionJob } from '../../../services/callBugRetention.ts';
import { createKeyedQueue } from '../../../services/keyedQueue.ts';
import { runWhileServing } from '../../../services/periodicJob.ts';
import { routes } from '../../../http/routes.ts';

/**
 * What one report may hold, in characters (docs/security.md "Call-bug reports"): the guest app sends its
 * last console entries, its phase and stages, and its user agent; a guest once stored 60 reports of
 * 600 kB in 19 s.
 */
export const CALL_BUG_LIMITS = { guest_log: 200_000, guest_state: 20_000, guest_client_info: 2_000 } as const;
/** Reports a guest may store for one call, and in any hour (counted in the database: every instance agrees). */
export const CALL_BUG_PER_CALL = 5;
export const CALL_BUG_PER_GUEST_HOUR = 10;
const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/**
 * POST /api/call-bug/by-guest: a call stage failed (docs/api.md). Kept even when the call was never
 * reported (the failure may be why), but only for the guest's own call ids, bounded in size and rate,
 * and deleted after the company's keeping (services/callBugRetention.ts).
 */
function callBugRoutes(app: App, services: Services): void {
  // hourly, and at start (a server that was down past a report's keeping deletes it right away); by one
  // instance at a time (services/jobLocks.ts)
  const retention = createCallBugRetentionJob(services, {
    now: services.now,
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  });
  runWhileServing(app, retention, 3_600_000, { now: true, lock: services.jobLocks.lock('call-bug retention') });
  // a guest's reports are counted and stored one at a time (simultaneous ones each counted the others out)
  const oneAtATime = createKeyedQueue();

  app.post(
    '/by-guest',
    {
      // The log can be large; each part is capped below (CALL_BUG_LIMITS).
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['call report'],
        summary: "Store a guest's report of a failed call stage, with its log, state and browser info",
        security: [{ guestBearer: [] }],
        body: CallBugBody,
        response: { 201: DataEnvelope(CreatedId), ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      const parts = { guest_log: text(b.guest_log), guest_state: text(b.guest_state), guest_client_info: text(b.guest_client_info) };
      for (const [name, value] of Object.entries(parts)) {
        const max = CALL_BUG_LIMITS[name as keyof typeof CALL_BUG_LIMITS];
        if (value.length > max) return fail(reply, 400, `${name}: at most ${max} characters`);
      }
      if (!ownsCallId(guest, b.call_id)) return fail(reply, 403, 'call_id: must be <your username>--<suffix>');
      const report = await services.repos.callReports.byCallId(b.call_id);
      if (report && (report.company_id !== guest.companyId || report.guest_username !== guest.username)) {
        return fail(reply, 403, 'call_id: not your call');
      }
      return oneAtATime(`${guest.companyId}:${guest.username}`, async () => {
        const now = services.now();
        const since = now - 3_600_000;
        /** `counts` less the report itself (`itself`: 1 once stored) against the limits */
        const refused = (counts: { guest: number; call: number }, itself: 0 | 1) => {
          if (counts.call - itself >= CALL_BUG_PER_CALL) return fail(reply, 429, `call_id: at most ${CALL_BUG_PER_CALL} reports for one call`);
          if (counts.guest - itself < CALL_BUG_PER_GUEST_HOUR) return null;
          void reply.header('retry-after', '3600');
          return fail(reply, 429, `access_token: at most ${CALL_BUG_PER_GUEST_HOUR} reports an hour for one guest`);
        };
        const early = refused(await services.repos.callBugs.countsOf(guest.companyId, guest.username, b.call_id, since), 0);
        if (early) return early;
        const id = await services.repos.callBugs.add({
          companyId: guest.companyId,
          callId: b.call_id,
          guestUsername: guest.username,
          guestId: b.guest_id ?? null,
          guestLog: parts.guest_log,
          guestState: parts.guest_state,
          guestClientInfo: parts.guest_client_info,
          now,
        });
        // again once stored: another instance may have stored one meanwhile (the earlier ids win)
        const late = refused(await services.repos.callBugs.countsOf(guest.companyId, guest.username, b.call_id, since, id), 1);
        if (late) {
          await services.repos.callBugs.remove(id);
          return late;
        }
        return reply.code(201).send({ data: { id } });
      });
    },
  );
}

export default routes({ access: 'guest' }, callBugRoutes);
