import crypto from 'node:crypto';
import type { Role } from '@lobby/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler, preValidationHookHandler } from 'fastify';
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
 * - ejabberd: `Authorization: Bearer <EJABBERD_EVENTS_SECRET>`, the events ejabberd posts (mod_lobby_events)
 */
export type Access = 'public' | 'guest' | 'guestBeacon' | 'console' | 'guestOrConsole' | 'ejabberd';

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

/** preValidation hooks as a route declares them: none, one, or a list */
type PreValidation = preValidationHookHandler | preValidationAsyncHookHandler;
export function preValidationList(hooks: PreValidation | PreValidation[] | undefined): PreValidation[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks];
}

/** Marks the hook that authenticates a route, so the validation plugin's hook goes right after it. */
export const AUTHENTICATES = Symbol('authenticates');

function registerAuth(app: App, services: Services): void {
  app.decorateRequest('guest', null);
  app.decorateRequest('consoleUser', null);

  // `this` is the scope the route is added in: a route file's (http/routes.ts) carries the file's callers.
  // Each route gets the check of its own access, chosen once here rather than read from the route's
  // options on every request (request.routeOptions builds a new object per read), first among its
  // preValidation hooks. Every route is added after this plugin (app.ts: plugins/app, then routes/).
  app.addHook('onRoute', function declared(this: FastifyInstance, route) {
    route.config = withCallers(this.routeCallers, route.config);
    const access = route.config.access;
    const isApi = route.url.startsWith('/api/') && !route.url.startsWith('/api/docs');
    if (isApi && route.method !== 'HEAD' && route.method !== 'OPTIONS' && !access) {
      throw new Error(`route ${String(route.method)} ${route.url} does not declare config.access`);
    }
    if (!access || access === 'public') return;
    const check =
      access === 'console' ? consoleCheck(services, route.config.role) : access === 'ejabberd' ? ejabberdCheck(services) : guestCheck(services, access, route.config.role);
    route.preValidation = [check, ...preValidationList(route.preValidation)];
  });
}

/**
 * After body parsing (the beacon's token is in the body), before validation: a caller without
 * credentials learns nothing about the shape of the request. guestOrConsole: a bearer token if one is
 * sent, else the console cookie.
 */
function guestCheck(services: Services, access: Exclude<Access, 'public' | 'console' | 'ejabberd'>, role: Role | undefined): preValidationHookHandler {
  const asConsole = access === 'guestOrConsole' ? consoleCheck(services, role) : null;
  const check: preValidationHookHandler = function (request, reply, done) {
    if (asConsole && request.headers.authorization === undefined) {
      asConsole.call(this, request, reply).then(() => {
        if (!reply.sent) done();
      }, done);
      return;
    }
    let token = bearer(request);
    if (!token && access === 'guestBeacon') {
      const body = request.body as { access_token?: unknown } | null | undefined;
      if (body && typeof body === 'object' && typeof body.access_token === 'string') token = body.access_token;
    }
    if (!token) return void deny(reply, 401, 'authorization: a bearer access_token is required');
    const claims = services.apiTokens.verify(token);
    if (!claims) return void deny(reply, 401, 'authorization: the access_token is invalid or expired');
    request.guest = claims;
    done();
  };
  return Object.assign(check, { [AUTHENTICATES]: true });
}

/** ejabberd's own posts: the shared secret as bearer, compared in constant time. */
function ejabberdCheck(services: Services): preValidationHookHandler {
  const expected = crypto.createHash('sha256').update(services.config.ejabberdEventsSecret).digest();
  const check: preValidationHookHandler = function (request, reply, done) {
    const token = bearer(request);
    const given = crypto.createHash('sha256').update(token ?? '').digest();
    if (!token || !crypto.timingSafeEqual(given, expected)) return void deny(reply, 401, 'authorization: the ejabberd events secret is required');
    done();
  };
  return Object.assign(check, { [AUTHENTICATES]: true });
}

/** The console cookie's session, and the route's lowest role (403 below it, before the body is validated). */
function consoleCheck(services: Services, role: Role | undefined): preValidationAsyncHookHandler {
  const check: preValidationAsyncHookHandler = async (request, reply) => {
    const id = request.cookies[SESSION_COOKIE];
    if (!id) return deny(reply, 401, `${SESSION_COOKIE}: not logged in`);
    const user = await services.repos.users.sessionUser(hashSessionId(services, id), services.now());
    if (!user) return deny(reply, 401, `${SESSION_COOKIE}: the session is invalid or expired`);
    request.consoleUser = user;
    if (role && !hasRole(user.role, role)) return deny(reply, 403, `role: ${role} or higher is required`);
  };
  return Object.assign(check, { [AUTHENTICATES]: true });
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
