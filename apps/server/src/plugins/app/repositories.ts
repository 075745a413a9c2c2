import fp from 'fastify-plugin';
import { createRepositories } from '../../services/index.ts';
import type { Services } from '../../services/index.ts';
import type { App } from '../../typebox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    repos: Services['repos'];
  }
}

/** The repositories every route shares (one per table family, on the app's database). */
export default fp(
  (app: App, _opts: unknown, done: (err?: Error) => void) => {
    app.decorate('repos', createRepositories(app.db));
    done();
  },
  { name: 'repositories', dependencies: ['db'] },
);
