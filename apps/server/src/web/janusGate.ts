/**
 * The browser's only way to Janus: `/janus` (websocket, subprotocol `janus-protocol`) and `/janus-http`
 * (Janus's HTTP API). Unlike a plain proxy, every request is read and checked against
 * services/media/janusPolicy.ts before Janus sees it, and a session is held to what created it:
 *
 * - websocket: a request may name only sessions created (or claimed) on the same connection;
 * - HTTP: a request may name only sessions created through this gate with a token of the same room and
 *   participant;
 * - `claim` (janus.js reconnecting after its websocket dropped) and an HTTP session this gate has no
 *   record of (it restarted) pass only for a session whose handles are in the token's room and were all
 *   attached with tokens of the token's participant, as Janus's admin API tells
 *   (services/media/janusSessions.ts). So a restart of the gate or of nginx mid-call costs the call
 *   nothing (docs/protocol.md "Session reclaim").
 * - an agent's standby token (no room: its console's warm session before it answers) is for the
 *   websocket only; its claim passes for a session whose every handle was attached with a token of that
 *   agent. Its session's handles send their room requests with the agent's room token once it answered.
 *
 * A publisher's configure gets the server's recording name for it and the room secret (lock_record
 * accepts a name only with the secret), so that when the server starts the room's recording every file
 * is named after who published it (services/media/recordingName.ts). When an agent's grant armed the
 * room's recording, the agent's configure also gets `record` (its streams are recorded from their first
 * packet), and the guest's recording starts once Janus tells this gate that the agent's subscription is
 * up (`webrtcup` of the agent's subscriber handle): services/media/recordingStart.ts says why.
 *
 * A room token ends with its call: once the server destroyed the call's room (the call ended, was held,
 * or its guest was blocked) a `create`, `claim` or `attach` with it is refused, though the token has not
 * expired. And one room token (its room and participant) creates at most MAX_SESSIONS_PER_TOKEN sessions
 * in a while (services/media/sessionBudget.ts), over the websocket and HTTP together.
 *
 * Several Janus nodes (docs/operations.md "Scaling"): each request goes to the node of its token's room
 * (the room's row names it; services/media/janusNodes.ts), so browsers keep one origin. A websocket is
 * bound to the node of its first request; a token whose room is on another node is refused on it (one
 * connection, one node: a session lives in one Janus). A standby token goes to the first node, and with
 * several nodes there is no standby (docs/protocol.md "The agent's standby session").
 *
 * A refused request is answered in Janus's own error shape (code 403), so janus.js reports it like any
 * Janus error. `info` and every GET but a session's long poll are refused: the version and the plugins
 * are nobody's business. Janus itself enforces the same tokens (token_auth), the videoroom admin_key and
 * each room's secret and pin, so a request that slipped past this gate would still be refused there.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Config } from '../config.ts';
import { checkJanusRequest, type Verdict } from '../services/media/janusPolicy.ts';
import type { JanusTokens, Participant } from '../services/media/janusTokens.ts';
import type { MediaRooms } from '../services/media/mediaRooms.ts';
import { recordingName } from '../services/media/recordingName.ts';
import { createRecordingStarter, type RecordingStarter } from '../services/media/recordingStart.ts';
import { createJanusSessions, sessionOfParticipant, sessionOfRoom, type JanusSessions } from '../services/media/janusSessions.ts';
import { createSessionBudget, MAX_SESSIONS_PER_TOKEN, type SessionBudget } from '../services/media/sessionBudget.ts';
import type { App } from '../typebox.ts';
// config.access (declared by the auth plugin)
import type {} from '../plugins/app/auth.ts';

const SUBPROTOCOL = 'janus-protocol';
/** Janus's own "unauthorized" code (JANUS_ERROR_UNAUTHORIZED) */
const UNAUTHORIZED = 403;

function refusal(message: Record<string, unknown> | null, reason: string): Record<string, unknown> {
  const transaction = message && typeof message.transaction === 'string' ? message.transaction : undefined;
  return { janus: 'error', ...(transaction ? { transaction } : {}), error: { code: UNAUTHORIZED, reason } };
}

function parse(text: string): Record<string, unknown> | null {
  const value = parseAny(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Any JSON (a long poll's batch is an array), or null. */
function parseAny(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The session id a request names (websocket: `session_id`; HTTP: the path), as a string. */
/** A websocket frame's text (ws hands a Buffer, an ArrayBuffer or fragments). */
const rawText = (data: RawData): string =>
  Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');

const sessionOf = (m: Record<string, unknown>): string | null =>
  typeof m.session_id === 'number' || typeof m.session_id === 'string' ? String(m.session_id) : null;

type Rooms = Pick<MediaRooms, 'secretOf' | 'recordArmed' | 'startRecording'>;
/** a room token's verdict (an agent's standby token names no room) */
type Allowed = Extract<Verdict, { ok: true; standby: false }>;

/** the standby token's websocket-only rule, in Janus's error shape */
const STANDBY_HTTP = 'token: a standby token is for the websocket (/janus) only';

/** Publisher handles, by handle id, and whether each publishes a screen (`{display}-screen`). */
type Publishers = Map<string, { screen: boolean }>;

const PUBLISHING = new Set(['configure', 'joinandconfigure', 'publish']);

/** An agent's subscriber handles, by handle id, with their room: their `webrtcup` starts the guest's recording. */
type AgentSubscribers = Map<string, string>;

/**
 * Notes publisher handles and an agent's subscriber handles as they join, and adds the server's
 * recording name and the room secret to a publisher's configure (and `record` to an agent's, when the
 * room's recording is armed). Returns the message to pass on.
 */
async function withServerFields(
  message: Record<string, unknown>,
  handle: string | null,
  verdict: Allowed,
  handles: { publishers: Publishers; agentSubscribers: AgentSubscribers },
  gate: Pick<Gate, 'rooms' | 'recording'>,
): Promise<Record<string, unknown>> {
  const body = message.body as Record<string, unknown> | undefined;
  if (message.janus !== 'message' || !body || handle === null) return message;
  const { room, participant } = verdict.claims;
  const agent = participant.role === 'agent';
  if ((body.request === 'join' || body.request === 'joinandconfigure') && body.ptype === 'publisher') {
    handles.publishers.set(handle, { screen: typeof body.display === 'string' && body.display.endsWith('-screen') });
  }
  if (agent && body.request === 'join' && body.ptype === 'subscriber') handles.agentSubscribers.set(handle, room);
  const publisher = handles.publishers.get(handle);
  if (!publisher || typeof body.request !== 'string' || !PUBLISHING.has(body.request)) return message;
  const secret = await gate.rooms.secretOf(room);
  if (!secret) return message;
  const filename = recordingName(room, participant, publisher.screen, Date.now());
  // an agent publishing is the answer the guest sees: an armed recording holds the agent's own streams
  // from their first packet; the guest's starts once the agent's subscription is up (recordingStart.ts)
  const record = agent && (await gate.rooms.recordArmed(room).catch(() => false));
  if (record) gate.recording.agentPublishing(room);
  return { ...message, body: { ...body, secret, filename, ...(record ? { record: true } : {}) } };
}

/** The rooms of an agent's subscriber handles that Janus says are up (`webrtcup`), in one event or a long poll's batch. */
function agentSubscriptionsUp(events: unknown, agentSubscribers: AgentSubscribers): string[] {
  if (agentSubscribers.size === 0) return [];
  const rooms: string[] = [];
  for (const event of (Array.isArray(events) ? events : [events]) as Array<Record<string, unknown> | null>) {
    const sender = event?.sender;
    if (event?.janus !== 'webrtcup' || (typeof sender !== 'number' && typeof sender !== 'string')) continue;
    const room = agentSubscribers.get(String(sender));
    if (room) rooms.push(room);
  }
  return rooms;
}

/** Janus unreachable: the error janus.js reports for a `create` or `claim` (instead of silence). */
const UNAVAILABLE = 503;

/** A Janus node as the gate reaches it: its websocket and HTTP endpoints, and who owns its sessions. */
export interface JanusRoute {
  name: string;
  wsUrl: string;
  httpUrl: string;
  sessions: JanusSessions;
}

/** The node of a token's room (null: a standby token, the first node). */
export type JanusRouter = (room: string | null) => Promise<JanusRoute>;

/** What the gate needs besides its config: the tokens, the rooms' secrets, where each room is, who owns a session, when to record. */
interface Gate {
  tokens: JanusTokens;
  rooms: Rooms;
  route: JanusRouter;
  recording: RecordingStarter;
  budget: SessionBudget;
}

/** Requests that start using a room token anew: refused once its call's room is gone. */
const OPENING = new Set(['create', 'claim', 'attach']);

/**
 * Why a room token's request may not go on (its call's room destroyed, its sessions used up), or null. A
 * standby token names no room: its agent's console is the server's own client, logged in.
 */
async function tokenRefusal(gate: Gate, message: Record<string, unknown>, verdict: Extract<Verdict, { ok: true }>): Promise<string | null> {
  if (verdict.standby || typeof message.janus !== 'string' || !OPENING.has(message.janus)) return null;
  const { room, participant } = verdict.claims;
  if ((await gate.rooms.secretOf(room).catch(() => null)) === null) return "token: its call's media room is closed";
  if (message.janus === 'create' && !gate.budget.take(`${room}\u0000${participant.role}\u0000${participant.username}`)) {
    return `token: at most ${MAX_SESSIONS_PER_TOKEN} sessions a token; use the one you have`;
  }
  return null;
}

export function registerJanusGate(
  app: App,
  config: Config,
  tokens: JanusTokens,
  rooms: Rooms,
  sessions: JanusSessions = createJanusSessions(config.janusAdminUrl, config.janusAdminSecret),
  recording: RecordingStarter = createRecordingStarter(
    (room) => rooms.startRecording(room),
    (message, error) => app.log.warn({ err: error }, message),
  ),
  // one Janus: the config's endpoints for every room
  route: JanusRouter = () => Promise.resolve({ name: 'janus-1', wsUrl: config.janusWsUrl, httpUrl: config.janusHttpUrl, sessions }),
): { websockets: () => number } {
  const gate = { tokens, rooms, route, recording, budget: createSessionBudget() };
  const wss = registerWebsocket(app, gate);
  registerHttp(app, gate);
  // the browsers' websockets this gate bridges now (gate.ts's /health: which gate carries a call)
  return { websockets: () => wss.clients.size };
}

/**
 * Whether a session is the token's (its handles in the token's room, none elsewhere, unless the token is
 * a standby one; each attached with a token of the token's participant), as Janus's admin API tells.
 * Notes a claimed session's publisher handles (their recording names).
 */
async function ownedSession(
  gate: Gate,
  session: string,
  claims: { room: string | null; participant: Participant },
  publishers: Publishers,
): Promise<boolean> {
  const handles = await (await gate.route(claims.room)).sessions.handles(session);
  if (claims.room !== null && !sessionOfRoom(handles, claims.room)) return false;
  if (!sessionOfParticipant(handles, claims.participant, gate.tokens)) return false;
  for (const h of handles ?? []) if (h.publisher) publishers.set(h.handle, h.publisher);
  return true;
}

function registerWebsocket(app: App, gate: Gate): WebSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/janus' && path !== '/janus/') return; // another websocket (XMPP) is not ours
    wss.handleUpgrade(request, socket, head, (client) => bridge(client, gate));
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', (_app, done) => {
    app.server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.terminate();
    wss.close(() => done());
  });
  return wss;
}

function bridge(client: WebSocket, gate: Gate): void {
  const { tokens } = gate;
  /** the node's websocket, opened on the first request that passes (its token's room names the node) */
  let upstream: WebSocket | null = null;
  let node: string | null = null;
  /** the token rooms already found on this connection's node (a keepalive or trickle asks the database nothing) */
  const roomsOnNode = new Set<string | null>();
  /** sessions created or claimed on this connection (Janus's answers to `create` and `claim`) */
  const sessions = new Set<string>();
  /** transactions of our `create` and `claim` requests, to learn the session ids they make */
  const creating = new Set<string>();
  const pending: string[] = [];
  const publishers: Publishers = new Map();
  const agentSubscribers: AgentSubscribers = new Map();
  /** requests pass one at a time, in order (a configure may wait for the room's secret) */
  let queue: Promise<void> = Promise.resolve();
  const toJanus = (text: string) => {
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(text);
    else pending.push(text);
  };
  const onRequest = async (text: string) => {
    const message = parse(text);
    const verdict = checkJanusRequest(tokens, message);
    if (!verdict.ok || !message) {
      client.send(JSON.stringify(refusal(message, verdict.ok ? 'not JSON' : verdict.reason)));
      return;
    }
    const refused = await tokenRefusal(gate, message, verdict);
    if (refused) {
      client.send(JSON.stringify(refusal(message, refused)));
      return;
    }
    if (!roomsOnNode.has(verdict.claims.room)) {
      const route = await gate.route(verdict.claims.room);
      if (node === null) {
        node = route.name;
        upstream = connect(route.wsUrl);
      } else if (route.name !== node) {
        client.send(JSON.stringify(refusal(message, "token: its room is on another Janus node than this connection's")));
        return;
      }
      roomsOnNode.add(verdict.claims.room);
    }
    const session = sessionOf(message);
    if (message.janus === 'create') {
      if (typeof message.transaction === 'string') creating.add(message.transaction);
    } else if (message.janus === 'claim') {
      if (session === null || !(await ownedSession(gate, session, verdict.claims, publishers))) {
        client.send(JSON.stringify(refusal(message, 'session_id: not a session of your token')));
        return;
      }
      if (typeof message.transaction === 'string') creating.add(message.transaction);
    } else if (session === null || !sessions.has(session)) {
      client.send(JSON.stringify(refusal(message, 'session_id: not a session of this connection')));
      return;
    }
    const handle = typeof message.handle_id === 'number' || typeof message.handle_id === 'string' ? String(message.handle_id) : null;
    // a standby token sends no message (janusPolicy.ts): nothing of the server's to add
    const passed = verdict.standby ? message : await withServerFields(message, handle, verdict, { publishers, agentSubscribers }, gate);
    toJanus(JSON.stringify(passed));
  };
  client.on('message', (data) => {
    const text = rawText(data);
    queue = queue.then(() => onRequest(text)).catch(() => client.close(1011, 'gate error'));
  });
  const onAnswer = (data: RawData) => {
    const text = rawText(data);
    const answer = parse(text);
    if (answer && typeof answer.transaction === 'string' && creating.delete(answer.transaction)) {
      // `create` answers data.id, `claim` answers session_id
      const id = (answer.data as { id?: unknown } | undefined)?.id ?? answer.session_id;
      if (answer.janus === 'success' && (typeof id === 'number' || typeof id === 'string')) sessions.add(String(id));
    }
    for (const room of agentSubscriptionsUp(answer, agentSubscribers)) gate.recording.agentSubscribed(room);
    if (client.readyState === WebSocket.OPEN) client.send(text);
  };
  const closeBoth = () => {
    // Janus unreachable or gone: a `create` or `claim` still waiting gets an error answer, so janus.js
    // reports it at once (it ignores a websocket that closes before its session exists)
    for (const transaction of creating) {
      if (client.readyState === WebSocket.OPEN) {
        client.send(JSON.stringify({ janus: 'error', transaction, error: { code: UNAVAILABLE, reason: 'Janus is unavailable' } }));
      }
    }
    creating.clear();
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING) client.close();
    if (upstream?.readyState === WebSocket.OPEN) upstream.close();
    else if (upstream?.readyState === WebSocket.CONNECTING) upstream.terminate();
  };
  function connect(url: string): WebSocket {
    const socket = new WebSocket(url, SUBPROTOCOL);
    socket.on('open', () => {
      for (const text of pending.splice(0)) socket.send(text);
    });
    socket.on('message', onAnswer);
    socket.on('close', closeBoth);
    socket.on('error', closeBoth);
    return socket;
  }
  client.on('close', closeBoth);
  client.on('error', closeBoth);
}

/** HTTP sessions the gate created, with the room and participant of the token that created them. */
const MAX_HTTP_SESSIONS = 10_000;

function registerHttp(app: App, gate: Gate): void {
  const { tokens } = gate;
  /** the HTTP API of the node of the token's room */
  const baseOf = async (room: string) => (await gate.route(room)).httpUrl.replace(/\/+$/, '');
  const sessions = new Map<string, { room: string; participant: Participant; expiry: number }>();
  const publishers: Publishers = new Map();
  const agentSubscribers: AgentSubscribers = new Map();
  const notePublishers = () => {
    // handles of sessions that ended without a detach: forget the oldest (a Map keeps insertion order)
    while (publishers.size > MAX_HTTP_SESSIONS * 4) publishers.delete(publishers.keys().next().value as string);
    while (agentSubscribers.size > MAX_HTTP_SESSIONS * 4) agentSubscribers.delete(agentSubscribers.keys().next().value as string);
  };
  const remember = (id: string, { room, participant, expiry }: Allowed['claims']) => {
    if (sessions.size >= MAX_HTTP_SESSIONS) {
      const now = Date.now() / 1000;
      for (const [key, s] of sessions) if (s.expiry < now) sessions.delete(key);
      if (sessions.size >= MAX_HTTP_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    }
    sessions.set(id, { room, participant, expiry });
  };
  const forward = async (url: string, init: RequestInit) => {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(70_000) });
      return { status: res.status, text: await res.text() };
    } catch {
      // Janus down: 503 in Janus's error shape (not a 500), so janus.js tries again or reports it
      return { status: UNAVAILABLE, text: JSON.stringify({ janus: 'error', error: { code: UNAVAILABLE, reason: 'Janus is unavailable' } }) };
    }
  };

  /** ours by the gate's record, or (a restarted gate) by what Janus tells of the session's handles */
  const owned = async (session: string, claims: Allowed['claims']) => {
    const known = sessions.get(session);
    if (known) {
      const { role, username } = known.participant;
      return known.room === claims.room && role === claims.participant.role && username === claims.participant.username;
    }
    if (!(await ownedSession(gate, session, claims, publishers))) return false;
    remember(session, claims);
    return true;
  };

  // POST /janus-http (create), /janus-http/{session} and /janus-http/{session}/{handle}
  app.post('/janus-http', { config: { access: 'public' } }, async (request, reply) => {
    const message = (request.body ?? null) as Record<string, unknown> | null;
    const verdict = checkJanusRequest(tokens, message);
    if (!verdict.ok) return reply.code(200).send(refusal(message, verdict.reason));
    if (verdict.standby) return reply.code(200).send(refusal(message, STANDBY_HTTP));
    const refused = message ? await tokenRefusal(gate, message, verdict) : null;
    if (refused) return reply.code(200).send(refusal(message, refused));
    if (message?.janus === 'claim') {
      // janus.js over HTTP claims at the base path too: only a session of the token's room
      const session = sessionOf(message);
      if (session === null || !(await owned(session, verdict.claims))) {
        return reply.code(200).send(refusal(message, 'session_id: not a session of your token'));
      }
    } else if (message?.janus !== 'create') {
      return reply.code(200).send(refusal(message, 'janus: only create and claim at this path'));
    }
    const res = await forward(await baseOf(verdict.claims.room), { method: 'POST', body: JSON.stringify(message), headers: { 'content-type': 'application/json' } });
    const answer = parse(res.text);
    const id = (answer?.data as { id?: unknown } | undefined)?.id;
    if (answer?.janus === 'success' && (typeof id === 'number' || typeof id === 'string')) {
      remember(String(id), verdict.claims);
    }
    return reply.code(res.status).type('application/json').send(res.text);
  });

  app.post<{ Params: { session: string; handle?: string } }>(
    '/janus-http/:session',
    { config: { access: 'public' } },
    async (request, reply) => sessionPost(request.params.session, undefined, request.body, reply),
  );
  app.post<{ Params: { session: string; handle: string } }>(
    '/janus-http/:session/:handle',
    { config: { access: 'public' } },
    async (request, reply) => sessionPost(request.params.session, request.params.handle, request.body, reply),
  );

  async function sessionPost(session: string, handle: string | undefined, body: unknown, reply: FastifyReply) {
    const message = (body ?? null) as Record<string, unknown> | null;
    const verdict = checkJanusRequest(tokens, message);
    if (!verdict.ok) return reply.code(200).send(refusal(message, verdict.reason));
    if (verdict.standby) return reply.code(200).send(refusal(message, STANDBY_HTTP));
    if (!/^\d+$/.test(session) || (handle !== undefined && !/^\d+$/.test(handle)) || !(await owned(session, verdict.claims))) {
      return reply.code(200).send(refusal(message, 'session_id: not a session of your token'));
    }
    const refused = message ? await tokenRefusal(gate, message, verdict) : null;
    if (refused) return reply.code(200).send(refusal(message, refused));
    const url = `${await baseOf(verdict.claims.room)}/${session}${handle ? `/${handle}` : ''}`;
    const passed = message ? await withServerFields(message, handle ?? null, verdict, { publishers, agentSubscribers }, gate) : message;
    const res = await forward(url, { method: 'POST', body: JSON.stringify(passed), headers: { 'content-type': 'application/json' } });
    if (message?.janus === 'detach' && handle) {
      publishers.delete(handle);
      agentSubscribers.delete(handle);
    }
    notePublishers();
    if (message?.janus === 'destroy') sessions.delete(session);
    return reply.code(res.status).type('application/json').send(res.text);
  }

  // GET /janus-http/{session}?token=…: the long poll for events (janus.js); nothing else is readable
  app.get<{ Params: { session: string }; Querystring: Record<string, string> }>(
    '/janus-http/:session',
    { config: { access: 'public' } },
    async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const claims = tokens.verify(token);
      const session = request.params.session;
      if (claims && claims.room === null && claims.participant?.role === 'agent') return reply.code(403).send(refusal(null, STANDBY_HTTP));
      const { room, participant } = claims ?? {};
      if (!claims || !room || !participant || !/^\d+$/.test(session) || !(await owned(session, { ...claims, room, participant }))) {
        return reply.code(403).send(refusal(null, 'token: missing, invalid or not of this session'));
      }
      const query = new URLSearchParams(request.query).toString();
      const res = await forward(`${await baseOf(room)}/${session}?${query}`, { method: 'GET' });
      // a long poll answers a batch (an array): read only when it may hold a webrtcup of ours
      if (agentSubscribers.size > 0 && res.text.includes('webrtcup')) {
        for (const room of agentSubscriptionsUp(parseAny(res.text), agentSubscribers)) gate.recording.agentSubscribed(room);
      }
      return reply.code(res.status).type('application/json').send(res.text);
    },
  );
  // /janus-http/info and any other GET: not public (Janus would tell its version and plugins)
  app.get('/janus-http', { config: { access: 'public' } }, (_request, reply) =>
    reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'GET /janus-http: no such route' }),
  );
}
