import { DataEnvelope, Health } from '@lobby/contracts';
import type { Services } from '../../services/index.ts';
import type { App } from '../../typebox.ts';
import { routes } from '../../http/routes.ts';

function healthRoutes(app: App, services: Services): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health of the server and of the services it needs; 503 when one is down',
        response: { 200: DataEnvelope(Health), 503: DataEnvelope(Health) },
      },
    },
    async (_request, reply) => {
      const [database, ejabberd, janus] = await Promise.all([services.db.ping(), services.ejabberd.status(), services.janus.status()]);
      const data = {
        server: 'up' as const,
        database: database ? ('up' as const) : ('down' as const),
        ejabberd: ejabberd ? ('up' as const) : ('down' as const),
        janus: janus ? ('up' as const) : ('down' as const),
      };
      return reply.code(database && ejabberd && janus ? 200 : 503).send({ data });
    },
  );
}

export default routes({ access: 'public' }, healthRoutes);
