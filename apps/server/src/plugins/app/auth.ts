import crypto from 'node:crypto';
import type { Role } from '@lobby/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
// request.cookies, reply.setCookie (plugins/external/cookie.ts registers @fastify/cookie)
import type {} from '@fastify/cookie';
import type { Services } from '../../services/index.ts';
import type { GuestClaims } from '../../services/tokens.ts';
import type { UserRow } from '../../repositories/users.ts';
import { withCallers } from '../../http/routes.ts';
import { hasRole } from '../../services/roles.ts';
import type { App } from '../../typebox.ts';

/**
 * Who may call a route. Every /api route declares it in `config.access` (route files say it once for the
 * file: http/routes.ts); a route without it fails at start-up.
 * - public: anybody
 * - guest: `Authorization: Bearer <access_token>`
 * - guestBeacon: the bearer header, or `access_token` in the body (navigator.sendBeacon cannot set headers)
 * - console: the `lobby_session` cookie of a console user; `config.role` narrows it (agent < supervisor < admin)
 * - guestOrConsole: a bearer token if one is sent, else the console cookie (uploads and files: both sides of a chat)
 */
export type Access = 'public' | 'guest' | 'guestBeacon' | 'console' | 'guestOrConsole';

export const SESSION_COOKIE = 'lobby_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** console routes: the lowest role that may call (403 below it, before the body is validated) */
    role?: Role;
  }
  interface FastifyRequest {
    guest: GuestClaims | null;
    consoleUser: UserRow | null;
  }
}

export function hashSessionId(services: Services, id: string): string {
  return crypto.createHmac('sha256', services.config.sessionSecret).update(id).digest('base64url');
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1] ?? null;
}

function deny(reply: FastifyReply, statusCode: 401 | 403, message: string) {
  return reply.code(statusCode).send({ statusCode, error: statusCode === 401 ? 'Unauthorized' : 'Forbidden', message });
}

function registerAuth(app: App, services: Services): void {
  app.decorateRequest('guest', null);
  app.decorateRequest('consoleUser', null);

  // `this` is the scope the route is added in: a route file's (http/routes.ts) carries the file's callers.
  app.addHook('onRoute', function declared(this: FastifyInstance, route) {
    route.config = withCallers(this.routeCallers, route.config);
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    if (route.method === 'HEAD' || route.method === 'OPTIONS') return;
    const access = route.config.access;
    if (!access) throw new Error(`route ${String(route.method)} ${route.url} does not declare config.access`);
  });

  // After body parsing (the beacon's token is in the body), before validation: a caller without
  // credentials learns nothing about the shape of the request.
  app.addHook('preValidation', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const asGuest = access === 'guest' || access === 'guestBeacon' || (access === 'guestOrConsole' && request.headers.authorization !== undefined);
    if (asGuest) {
      let token = bearer(request);
      if (!token && access === 'guestBeacon') {
        const body = request.body as { access_token?: unknown } | null | undefined;
        if (body && typeof body === 'object' && typeof body.access_token === 'string') token = body.access_token;
      }
      if (!token) return deny(reply, 401, 'authorization: a bearer access_token is required');
      const claims = services.apiTokens.verify(token);
      if (!claims) return deny(reply, 401, 'authorization: the access_token is invalid or expired');
      request.guest = claims;
      return;
    }
    // console
    const id = request.cookies[SESSION_COOKIE];
    if (!id) return deny(reply, 401, `${SESSION_COOKIE}: not logged in`);
    const user = await services.repos.users.sessionUser(hashSessionId(services, id), services.now());
    if (!user) return deny(reply, 401, `${SESSION_COOKIE}: the session is invalid or expired`);
    request.consoleUser = user;
    const role = request.routeOptions.config.role;
    if (role && !hasRole(user.role, role)) return deny(reply, 403, `role: ${role} or higher is required`);
  });
}

/** Authentication of every /api route by its `config.access` (and `config.role`). */
export default fp(
  (app: App, _opts: unknown, done: (err?: Error) => void) => {
    registerAuth(app, app.services);
    done();
  },
  { name: 'auth', dependencies: ['services', 'cookie'] },
);

/** The guest of a route with access 'guest' / 'guestBeacon' (set by the preValidation hook). */
export function guestOf(request: FastifyRequest): GuestClaims {
  if (!request.guest) throw new Error('guest route without guest');
  return request.guest;
}

export function consoleUserOf(request: FastifyRequest): UserRow {
  if (!request.consoleUser) throw new Error('console route without user');
  return request.consoleUser;
}
