import { CallDetails, CallIdParams, CallNoteBody, CallSummary, CallsQuery, DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createCallDetailsRepository } from '../../../repositories/callDetails.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * A call as its company's console users see it: the queue entry's details (welcome-form answers, the
 * guest's position), and the note an agent writes after the call. Every console user of the call's
 * company may read and write (agents answer any call of their assignments and wrap it up); another
 * company's call is "no such call" (404), guests have no console session (401).
 */
function consoleCallRoutes(app: App, services: Services): void {
  const repo = createCallDetailsRepository(services.db.kysely);
  const security = [{ consoleSession: [] }];

  app.get(
    '/calls/:callId',
    {
      schema: {
        tags: ['console'],
        summary: "A call of the user's company: guest, times, position, welcome-form answers, note",
        security,
        params: CallIdParams,
        response: { 200: DataEnvelope(CallDetails), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const details = await repo.details(consoleUserOf(request).companyId, request.params.callId);
      if (!details) return fail(reply, 404, 'callId: no such call');
      return { data: details };
    },
  );

  app.put(
    '/calls/:callId/note',
    {
      schema: {
        tags: ['console'],
        summary: 'Write (or, empty, remove) the note on a call after it (wrap-up); answers the call',
        security,
        params: CallIdParams,
        body: CallNoteBody,
        response: { 200: DataEnvelope(CallDetails), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const { callId } = request.params;
      if (!(await repo.setNote(user.companyId, callId, request.body.note, user.id, services.now()))) {
        return fail(reply, 404, 'callId: no such call');
      }
      return { data: (await repo.details(user.companyId, callId)) as CallDetails };
    },
  );

  app.get(
    '/calls',
    {
      config: { role: 'supervisor' },
      schema: {
        tags: ['console'],
        summary: "The company's latest calls with their notes (newest first); `service` talk | widget | all; supervisors and admins",
        security,
        querystring: CallsQuery,
        response: { 200: DataEnvelope(Type.Array(CallSummary)), ...errors(400, 401, 403) },
      },
    },
    async (request) => ({ data: await repo.latest(consoleUserOf(request).companyId, request.query.limit ?? 50, request.query.service) }),
  );
}

export default routes({ access: 'console' }, consoleCallRoutes);
