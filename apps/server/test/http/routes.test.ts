import Fastify from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyContextConfig } from 'fastify';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/http/routes.ts';
import auth from '../../src/plugins/app/auth.ts';
import cookie from '../../src/plugins/external/cookie.ts';
import type { Services } from '../../src/services/index.ts';

/** A route file states its callers once (http/routes.ts); a route that differs says so in its own config. */
// the auth plugin reads services only when a request comes
const noServices = fp(
  (app, _opts, done: (err?: Error) => void) => {
    app.decorate('services', {} as Services);
    done();
  },
  { name: 'services' },
);

describe('routes(callers, register) with the auth plugin', () => {
  async function configs(): Promise<Map<string, FastifyContextConfig>> {
    const app = Fastify({ logger: false });
    await app.register(noServices);
    await app.register(cookie);
    await app.register(auth);
    // a root hook after auth's sees each route's config as the route will have it
    const seen = new Map<string, FastifyContextConfig>();
    app.addHook('onRoute', (route) => {
      if (route.method === 'GET') seen.set(route.url, route.config ?? {});
    });
    const answer = () => Promise.resolve({});
    const file = routes({ access: 'console', role: 'admin' }, (scope) => {
      scope.get('/plain', answer);
      scope.get('/supervisors', { config: { role: 'supervisor' } }, answer);
      scope.get('/open', { config: { access: 'public', rateLimit: { max: 5, timeWindow: '1 minute' } } }, answer);
      scope.register((nested, _opts, done) => {
        nested.get('/nested', answer);
        done();
      });
    });
    await app.register(file, { prefix: '/api/x' });
    await app.ready();
    await app.close();
    return seen;
  }

  it("when a route says nothing, then it gets the file's access and role (also in a nested scope)", async () => {
    const c = await configs();
    expect(c.get('/api/x/plain')).toMatchObject({ access: 'console', role: 'admin' });
    expect(c.get('/api/x/nested')).toMatchObject({ access: 'console', role: 'admin' });
  });

  it('when a route names another role, then that role applies', async () => {
    expect((await configs()).get('/api/x/supervisors')).toMatchObject({ access: 'console', role: 'supervisor' });
  });

  it('when a route names another access, then it keeps its own config and inherits no role', async () => {
    const open = (await configs()).get('/api/x/open');
    expect(open).toMatchObject({ access: 'public', rateLimit: { max: 5 } });
    expect(open?.role).toBeUndefined();
  });

  it('when a route outside any route file names no access, then it is refused at once', async () => {
    const app = Fastify({ logger: false });
    await app.register(noServices);
    await app.register(cookie);
    await app.register(auth);
    expect(() => app.get('/api/bare', () => Promise.resolve({}))).toThrow(/does not declare config.access/);
    await app.close();
  });
});
