import type { Role } from '@lobby/contracts';
import type { FastifyContextConfig, FastifyPluginAsync } from 'fastify';
import type { Access } from '../plugins/app/auth.ts';
import type { Services } from '../services/index.ts';
import type { App } from '../typebox.ts';

/** Who may call the routes of one file: the access (plugins/app/auth.ts) and, for console routes, the lowest role. */
export interface Callers {
  access: Access;
  role?: Role;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the callers of the route file whose scope this is (routes()); undefined outside route files */
    routeCallers?: Callers;
  }
}

/**
 * A route file's plugin, the default export that @fastify/autoload registers under the file's folder
 * (routes/api/console/session.ts → prefix /api/console). `callers` is the file's one statement of who may
 * call its routes; the auth plugin gives them to each route of the file's scope (callersOf).
 */
export function routes(callers: Callers, register: (app: App, services: Services) => unknown): FastifyPluginAsync {
  return async function routeFile(fastify) {
    const app = fastify as unknown as App;
    app.decorate('routeCallers', callers);
    await register(app, app.services);
  };
}

/**
 * A route's config with its file's callers: a route that differs says so in its own config, with another
 * role, or with another access (and then it inherits no role).
 */
export function withCallers(callers: Callers | undefined, own: FastifyContextConfig = {}): FastifyContextConfig {
  if (!callers || (own.access && own.access !== callers.access)) return own;
  return { ...callers, ...own };
}
