import { CallIdParams, CallRoutingInfo, ConsoleAvailabilityBody, DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { routingInfo } from '../../../services/routingInfo.ts';

/** Round robin from the agent's side (docs/protocol.md): whether it may be offered calls, and declining an offer. */
export default routes({ access: 'console' }, (app, services) => {
  app.post(
    '/availability',
    {
      schema: {
        tags: ['console'],
        summary: 'Tell round robin whether this agent may be offered calls (available or away, and busy in a call)',
        security: [{ consoleSession: [] }],
        body: ConsoleAvailabilityBody,
        response: { 200: DataEnvelope(Type.Object({ availability: Type.String(), busy: Type.Boolean() })), ...errors(400, 401) },
      },
    },
    async (request) => {
      const user = consoleUserOf(request);
      const busy = request.body.busy ?? false;
      await services.roundRobin.setAvailability(user.id, { away: request.body.availability === 'away', busy });
      services.events.publish('callStats', { companyId: user.companyId });
      return { data: { availability: request.body.availability, busy } };
    },
  );

  app.post(
    '/calls/:callId/decline',
    {
      schema: {
        tags: ['console'],
        summary: 'Decline a call round robin offers you: it moves to the next available agent (or opens to all)',
        security: [{ consoleSession: [] }],
        params: CallIdParams,
        response: { 200: DataEnvelope(CallRoutingInfo), ...errors(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const { callId } = request.params;
      const routing = await services.roundRobin.routing(callId);
      // another company's call answers exactly like an unknown one
      if (!routing || routing.companyId !== user.companyId) return fail(reply, 404, 'callId: no call is being offered under this id');
      if ((await services.roundRobin.decline(callId, user.id)) !== 'moved') return fail(reply, 409, 'callId: this call is not offered to you');
      const now = await services.roundRobin.routing(callId);
      return { data: routingInfo(now ?? routing) };
    },
  );
});
