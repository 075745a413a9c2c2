import { ConsoleRooms, DataEnvelope } from '@lobby/contracts';
import type { OpenCall } from '@lobby/contracts';
import { errors } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { seesRouting, visibleAssignments } from '../../../services/callVisibility.ts';
import { routingInfo } from '../../../services/routingInfo.ts';

/** The open calls a console user sees (services/callVisibility.ts), with where each stands in round robin. */
export default routes({ access: 'console' }, (app, services) => {
  const { repos, config } = services;
  app.get(
    '/rooms',
    {
      schema: {
        tags: ['console'],
        summary: `The guest rooms of the user's assignments with a call opened in the last hours and not ended`,
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(ConsoleRooms), ...errors(401) },
      },
    },
    async (request) => {
      const user = consoleUserOf(request);
      const since = services.now() - config.openCallHours * 3600_000;
      const visible = await visibleAssignments(repos, user);
      const viewer = { user, visible: new Set(visible) };
      const rows = await repos.callReports.openCalls(user.companyId, visible, since, user.xmppUsername);
      const routings = await services.roundRobin.routings(rows.map((r) => r.callId));
      const rooms: OpenCall[] = rows.map(({ appointmentAgent: _agent, ...r }) => {
        const routing = routings.get(r.callId);
        return {
          ...r,
          openedAt: new Date(r.openedAt).toISOString(),
          ...(routing && seesRouting(viewer, routing) ? { routing: routingInfo(routing) } : {}),
        };
      });
      return { data: { rooms } };
    },
  );
});
