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
      const [database, ejabberd, nodes] = await Promise.all([services.db.ping(), services.ejabberd.status(), services.janus.status()]);
      const upDown = (up: boolean) => (up ? ('up' as const) : ('down' as const));
      const janus = nodes.some((n) => n.up);
      const data = {
        server: 'up' as const,
        database: upDown(database),
        ejabberd: upDown(ejabberd),
        janus: upDown(janus),
        janusNodes: nodes.map((n) => ({ name: n.name, state: upDown(n.up) })),
      };
      return reply.code(database && ejabberd && janus ? 200 : 503).send({ data });
    },
  );
}

export default routes({ access: 'public' }, healthRoutes);
