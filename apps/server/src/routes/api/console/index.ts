import crypto from 'node:crypto';
import {
  CONSOLE_EVENT_CALL_OPENED,
  CONSOLE_EVENT_CALL_ROUTING,
  CONSOLE_EVENT_CALL_TRANSFER,
  CONSOLE_EVENT_TRANSFER_ACCEPTED,
  CallIdParams,
  CallRoutingInfo,
  ConsoleAvailabilityBody,
  ConsoleRooms,
  ConsoleSession,
  DataEnvelope,
  LoginBody,
  XmppToken,
} from '@lobby/contracts';
import type { ConsoleUser, IncomingTransfer, OpenCall, TransferAccepted } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { SESSION_COOKIE, SESSION_TTL_MS, consoleUserOf, hashSessionId } from '../../../plugins/app/auth.ts';
import type { UserRow } from '../../../repositories/users.ts';
import type { CallOpenedEvent, CallTransferEvent } from '../../../services/events.ts';
import type { CallRouting } from '../../../services/roundRobin.ts';
import type { Services } from '../../../services/index.ts';
import { DUMMY_HASH, verifyPassword } from '../../../services/passwords.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../errors.ts';

const HEARTBEAT_MS = 15_000;

export function consoleRoutes(app: App, services: Services): void {
  const { repos, config } = services;
  const jidOf = (u: UserRow) => `${u.xmppUsername}@${config.xmppDomain}`;

  /** The assignments whose calls a console user sees: its own; admins and supervisors see all of the company's. */
  async function visibleAssignments(u: UserRow): Promise<number[]> {
    if (u.role === 'agent') return repos.users.assignmentIds(u.id);
    return (await repos.companies.assignments(u.companyId)).map((a) => a.id);
  }

  async function publicUser(u: UserRow): Promise<ConsoleUser> {
    return {
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      companyId: u.companyId,
      jid: jidOf(u),
      assignmentIds: await visibleAssignments(u),
    };
  }

  app.post(
    '/api/console/login',
    {
      config: { access: 'public', rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['console'],
        summary: 'Log a console user in: sets the httpOnly lobby_session cookie (12 h)',
        body: LoginBody,
        response: { 200: DataEnvelope(ConsoleSession), ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      // Per account and address, progressively slower after wrong passwords (services/loginThrottle.ts);
      // a try inside the wait is not checked at all, so it tells nothing about the password.
      const wait = services.loginThrottle.waitMs(email, request.ip);
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        void reply.header('retry-after', String(seconds));
        return fail(reply, 429, `email: too many wrong passwords for this account, retry in ${seconds} s`);
      }
      const user = await repos.users.byEmail(email);
      // Same work for unknown emails as for wrong passwords.
      const ok = await verifyPassword(request.body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        services.loginThrottle.failed(email, request.ip);
        return fail(reply, 401, 'email or password is wrong');
      }
      services.loginThrottle.succeeded(email, request.ip);
      const id = crypto.randomBytes(32).toString('base64url');
      const now = services.now();
      await repos.users.createSession(hashSessionId(services, id), user.id, now, now + SESSION_TTL_MS);
      reply.setCookie(SESSION_COOKIE, id, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        // Secure whenever the request came over HTTPS: directly, or through the proxy TRUST_PROXY names
        secure: 'auto',
        maxAge: SESSION_TTL_MS / 1000,
      });
      return { data: { user: await publicUser(user) } };
    },
  );

  app.post(
    '/api/console/logout',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: 'End the session and clear the cookie',
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(Type.Object({ loggedOut: Type.Boolean() })), ...errors(401) },
      },
    },
    async (request, reply) => {
      const id = request.cookies[SESSION_COOKIE];
      if (id) await repos.users.deleteSession(hashSessionId(services, id));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { data: { loggedOut: true } };
    },
  );

  app.get(
    '/api/console/me',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: 'The logged-in console user',
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(ConsoleSession), ...errors(401) },
      },
    },
    async (request) => ({ data: { user: await publicUser(consoleUserOf(request)) } }),
  );

  app.post(
    '/api/console/xmpp-token',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: "A short-lived XMPP credential for the user's JID (SASL PLAIN password)",
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(XmppToken), ...errors(401) },
      },
    },
    (request) => {
      const jid = jidOf(consoleUserOf(request));
      const t = services.xmppTokens.mint(jid);
      return Promise.resolve({ data: { jid, credential: t.token, expires_in: t.expiresIn } });
    },
  );

  app.get(
    '/api/console/rooms',
    {
      config: { access: 'console' },
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
      const rows = await repos.callReports.openCalls(user.companyId, await visibleAssignments(user), since, user.xmppUsername);
      const rooms: OpenCall[] = rows.map(({ appointmentAgent: _agent, ...r }) => {
        const routing = services.roundRobin.routing(r.callId);
        return {
          ...r,
          openedAt: new Date(r.openedAt).toISOString(),
          ...(routing && routing.companyId === user.companyId ? { routing: routingInfo(routing) } : {}),
        };
      });
      return { data: { rooms } };
    },
  );

  /** Open event streams, ended when the server closes. */
  const streams = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of streams) end();
    done();
  });

  app.get(
    '/api/console/events',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: 'Server-sent events: `event: callOpened` (data: OpenCall JSON) for calls in your assignments; heartbeat every 15 s',
        security: [{ consoleSession: [] }],
        produces: ['text/event-stream'],
        response: { 401: errors(401)[401] },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const sessionHash = hashSessionId(services, request.cookies[SESSION_COOKIE] ?? '');
      let assignmentIds = new Set(await visibleAssignments(user));

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n: connected\n\n');

      const onCall = (e: CallOpenedEvent) => {
        if (e.companyId !== user.companyId || e.assignmentId === null || e.room === null) return;
        // an appointment call reaches only its agent (whatever the assignment); others only their assignments'
        if (e.appointmentAgent) {
          if (e.appointmentAgent !== user.xmppUsername) return;
        } else if (!assignmentIds.has(e.assignmentId)) return;
        const data: OpenCall = {
          room: e.room,
          assignmentId: e.assignmentId,
          assignmentName: e.assignmentName ?? '',
          guestUsername: e.guestUsername,
          callId: e.callId,
          reportId: e.reportId,
          openedAt: new Date(e.openedAt).toISOString(),
        };
        res.write(`event: ${CONSOLE_EVENT_CALL_OPENED}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const unsubscribe = services.events.subscribe('callOpened', onCall);
      // round robin: where each waiting call of the agent's assignments stands
      const onRouting = (r: CallRouting) => {
        if (r.companyId !== user.companyId || !assignmentIds.has(r.assignmentId)) return;
        res.write(`event: ${CONSOLE_EVENT_CALL_ROUTING}\ndata: ${JSON.stringify(routingInfo(r))}\n\n`);
      };
      const unsubscribeRouting = services.events.subscribe('callRouting', onRouting);
      // transfers: the call handed to this user (or its assignment), and who took a transfer
      const servedNow = new Set(await repos.users.assignmentIds(user.id));
      const onTransfer = (e: CallTransferEvent) => {
        if (e.companyId !== user.companyId || e.fromJid === jidOf(user)) return;
        if (e.toUserId !== user.id && !(e.toAssignmentId !== null && servedNow.has(e.toAssignmentId))) return;
        const data: IncomingTransfer = { id: e.id, callId: e.callId, room: e.room, guestUsername: e.guestUsername, fromName: e.fromName, fromJid: e.fromJid };
        res.write(`event: ${CONSOLE_EVENT_CALL_TRANSFER}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const onAccepted = (e: { companyId: number; id: number; callId: string; toJid: string }) => {
        if (e.companyId !== user.companyId) return;
        const data: TransferAccepted = { id: e.id, callId: e.callId, toJid: e.toJid };
        res.write(`event: ${CONSOLE_EVENT_TRANSFER_ACCEPTED}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const unsubscribeTransfer = services.events.subscribe('callTransfer', onTransfer);
      const unsubscribeAccepted = services.events.subscribe('transferAccepted', onAccepted);
      // Agents (role agent) with the console open take part in round robin; supervisors and admins do not
      // get offers (they see a round-robin call once it is open to all).
      const servedIds = async (u: UserRow) => (u.role === 'agent' ? repos.users.assignmentIds(u.id) : []);
      const leaveRotation =
        user.role === 'agent'
          ? services.roundRobin.connect({
              userId: user.id,
              companyId: user.companyId,
              xmppUsername: user.xmppUsername,
              assignmentIds: await servedIds(user),
            })
          : () => undefined;

      // Heartbeat; also ends the stream when the session was logged out or expired, and refreshes assignments.
      const heartbeat = setInterval(() => {
        void (async () => {
          try {
            const still = await repos.users.sessionUser(sessionHash, services.now());
            if (!still) return end();
            assignmentIds = new Set(await visibleAssignments(still));
            services.roundRobin.updateAssignments(still.id, await servedIds(still));
            res.write(': heartbeat\n\n');
          } catch (err) {
            request.log.warn({ err }, 'console events heartbeat failed');
          }
        })();
      }, HEARTBEAT_MS);
      heartbeat.unref();

      let ended = false;
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        unsubscribeRouting();
        unsubscribeTransfer();
        unsubscribeAccepted();
        leaveRotation();
        streams.delete(end);
        res.end();
      }
      streams.add(end);
      request.raw.on('close', end);
    },
  );

  app.post(
    '/api/console/availability',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: 'Tell round robin whether this agent may be offered calls (available or away, and busy in a call)',
        security: [{ consoleSession: [] }],
        body: ConsoleAvailabilityBody,
        response: { 200: DataEnvelope(Type.Object({ availability: Type.String(), busy: Type.Boolean() })), ...errors(400, 401) },
      },
    },
    (request) => {
      const user = consoleUserOf(request);
      const busy = request.body.busy ?? false;
      services.roundRobin.setAvailability(user.id, { away: request.body.availability === 'away', busy });
      return Promise.resolve({ data: { availability: request.body.availability, busy } });
    },
  );

  app.post(
    '/api/console/calls/:callId/decline',
    {
      config: { access: 'console' },
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
      const routing = services.roundRobin.routing(callId);
      // another company's call answers exactly like an unknown one
      if (!routing || routing.companyId !== user.companyId) return fail(reply, 404, 'callId: no call is being offered under this id');
      if (services.roundRobin.decline(callId, user.id) !== 'moved') return fail(reply, 409, 'callId: this call is not offered to you');
      const now = services.roundRobin.routing(callId);
      return { data: routingInfo(now ?? routing) };
    },
  );
}

/** The console's view of a call's routing (times as ISO strings, no company id). */
function routingInfo(r: CallRouting): CallRoutingInfo {
  return {
    callId: r.callId,
    assignmentId: r.assignmentId,
    state: r.state,
    offeredTo: r.offeredTo,
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).toISOString(),
    offerSeconds: r.offerMs === null ? null : Math.round(r.offerMs / 1000),
  };
}
