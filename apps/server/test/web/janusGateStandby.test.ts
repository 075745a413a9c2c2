/**
 * An agent's standby token through the real gate (web/janusGate.ts), a fake Janus behind it: the warm
 * session (create, attach, keepalive) passes on the websocket, no message or trickle does, the agent's
 * room token works on it once it answered; a claim passes only for a session whose every handle was
 * attached with a token of the claimer (what Janus's admin API tells, faked here); HTTP refuses it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { SessionHandle } from '../../src/services/media/janusSessions.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import type { App } from '../../src/typebox.ts';
import { registerJanusGate } from '../../src/web/janusGate.ts';
import { gateSocket } from '../helpers/gateSocket.ts';

const tokens = createJanusTokens('test-secret-test-secret');
const ROOM = 'gab--Warm1';
const agent = { role: 'agent' as const, username: 'agent-18' };
const standby = tokens.mint(null, 3600, agent).token;
const otherStandby = tokens.mint(null, 3600, { role: 'agent', username: 'admin-18' }).token;
const agentRoomToken = tokens.mint(ROOM, 3600, agent).token;
const guestRoomToken = tokens.mint(ROOM, 3600, { role: 'guest', username: 'gab' }).token;
/** the agent's standby token of an hour ago, expired: a long call's handles keep their attach token */
const oldStandby = createJanusTokens('test-secret-test-secret', () => Date.now() - 7200_000).mint(null, 3600, agent).token;
const STANDBY_REFUSAL = 'token: a standby token is for the websocket (/janus) only';

describe("the gate and an agent's standby token", () => {
  let janus: WebSocketServer;
  /** the fake Janus's HTTP API: create answers a session, anything else an ack */
  let janusHttp: Server;
  let app: App;
  let port: number;
  /** what reached the fake Janus */
  const received: Record<string, unknown>[] = [];
  /** what Janus's admin API tells of each session's handles */
  const handlesOf = new Map<string, SessionHandle[]>();

  beforeAll(async () => {
    janus = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'janus-protocol' });
    let ids = 100;
    janus.on('connection', (ws) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as Record<string, unknown>;
        received.push(m);
        const reply = (extra: Record<string, unknown>) => ws.send(JSON.stringify({ transaction: m.transaction, ...extra }));
        if (m.janus === 'create' || m.janus === 'attach') reply({ janus: 'success', data: { id: ++ids } });
        else if (m.janus === 'claim') reply({ janus: 'success', session_id: m.session_id });
        else reply({ janus: 'ack' });
      });
    });
    await new Promise((r) => janus.once('listening', r));
    const janusPort = (janus.address() as AddressInfo).port;
    janusHttp = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const m = JSON.parse(text) as Record<string, unknown>;
        received.push(m);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(m.janus === 'create' ? { janus: 'success', transaction: m.transaction, data: { id: ++ids } } : { janus: 'ack', transaction: m.transaction }));
      });
    });
    await new Promise<void>((r) => janusHttp.listen(0, '127.0.0.1', r));
    const httpPort = (janusHttp.address() as AddressInfo).port;
    app = Fastify();
    registerJanusGate(
      app,
      { janusWsUrl: `ws://127.0.0.1:${janusPort}`, janusHttpUrl: `http://127.0.0.1:${httpPort}/janus` } as Config,
      tokens,
      { secretOf: () => Promise.resolve('room-secret'), recordArmed: () => Promise.resolve(false), startRecording: () => Promise.resolve() },
      { handles: (session) => Promise.resolve(handlesOf.get(session) ?? null) },
      { agentPublishing: () => undefined, agentSubscribed: () => undefined },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    janus.close();
    janusHttp.close();
  });
  beforeEach(() => {
    received.length = 0;
    handlesOf.clear();
  });

  /** A browser's websocket through the gate: `ask` sends a request and resolves with the answer. */
  const connection = () => gateSocket(port);
  const reached = (janusVerb: string) => received.filter((m) => m.janus === janusVerb);
  const handle = (id: string, token: string | null, room: string | null = null): SessionHandle => ({ handle: id, room, publisher: null, token });

  it('when an agent warms a session with its standby token, then create, attach and keepalive reach Janus; a message and a trickle are refused naming the token', async () => {
    const c = await connection();
    const created = await c.ask({ janus: 'create', token: standby });
    expect(created.janus).toBe('success');
    const session_id = (created.data as { id: number }).id;
    const attached = await c.ask({ janus: 'attach', session_id, token: standby, plugin: 'janus.plugin.videoroom' });
    expect(attached.janus).toBe('success');
    const handle_id = (attached.data as { id: number }).id;
    expect((await c.ask({ janus: 'keepalive', session_id, token: standby })).janus).toBe('ack');

    const join = await c.ask({ janus: 'message', session_id, handle_id, token: standby, body: { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p' } });
    const trickle = await c.ask({ janus: 'trickle', session_id, handle_id, token: standby, candidate: { completed: true } });
    expect(join).toMatchObject({ janus: 'error', error: { code: 403, reason: expect.stringMatching(/^token: a standby token cannot message/) as string } });
    expect(trickle).toMatchObject({ janus: 'error', error: { code: 403, reason: expect.stringMatching(/^token: a standby token cannot trickle/) as string } });
    expect(reached('message')).toEqual([]);
    expect(reached('trickle')).toEqual([]);
    c.close();
  });

  it("when the agent answers, then its handle's join and configure with its room token pass on the warm session (configure with the room's secret)", async () => {
    const c = await connection();
    const session_id = ((await c.ask({ janus: 'create', token: standby })).data as { id: number }).id;
    const handle_id = ((await c.ask({ janus: 'attach', session_id, token: standby, plugin: 'janus.plugin.videoroom' })).data as { id: number }).id;
    const join = await c.ask({ janus: 'message', session_id, handle_id, token: agentRoomToken, body: { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p', display: 'agent-18' } });
    const configure = await c.ask({ janus: 'message', session_id, handle_id, token: agentRoomToken, body: { request: 'configure', audio: true } });
    expect([join.janus, configure.janus]).toEqual(['ack', 'ack']);
    expect(reached('message').at(-1)?.body).toMatchObject({ request: 'configure', secret: 'room-secret' });
    // a session of another connection is not the agent's to use, room token or not
    const other = await connection();
    expect(await other.ask({ janus: 'keepalive', session_id, token: standby })).toMatchObject({ janus: 'error', error: { code: 403 } });
    c.close();
    other.close();
  });

  it('when the agent claims its warm session on a new websocket with its standby token, then it passes, its handles attached with its tokens (expired or not)', async () => {
    handlesOf.set('501', [handle('1', standby), handle('2', oldStandby, ROOM)]);
    handlesOf.set('502', [handle('1', standby, ROOM), handle('2', agentRoomToken, ROOM)]);
    const c = await connection();
    for (const session_id of [501, 502]) {
      expect(await c.ask({ janus: 'claim', session_id, token: standby }), String(session_id)).toMatchObject({ janus: 'success' });
    }
    // the claimed session is this connection's now
    expect((await c.ask({ janus: 'keepalive', session_id: 501, token: standby })).janus).toBe('ack');
    expect(reached('claim')).toHaveLength(2);
    c.close();
  });

  it("when another agent's standby token claims the agent's warm session, or a session with a handle of someone else, or with no handle, then it is refused", async () => {
    handlesOf.set('601', [handle('1', standby), handle('2', standby)]);
    handlesOf.set('602', [handle('1', standby), handle('2', guestRoomToken, ROOM)]);
    handlesOf.set('603', [handle('1', standby), handle('2', null)]);
    handlesOf.set('604', []);
    const c = await connection();
    const refusedClaim = { janus: 'error', error: { code: 403, reason: 'session_id: not a session of your token' } };
    expect(await c.ask({ janus: 'claim', session_id: 601, token: otherStandby })).toMatchObject(refusedClaim);
    for (const session_id of [602, 603, 604, 699]) {
      expect(await c.ask({ janus: 'claim', session_id, token: standby }), String(session_id)).toMatchObject(refusedClaim);
    }
    expect(reached('claim')).toEqual([]);
    c.close();
  });

  it("when a guest of the room claims the agent's session in that room, then it is refused; the agent's room token claims it", async () => {
    handlesOf.set('701', [handle('1', standby, ROOM), handle('2', standby, ROOM)]);
    handlesOf.set('702', [handle('1', guestRoomToken, ROOM)]);
    const c = await connection();
    expect(await c.ask({ janus: 'claim', session_id: 701, token: guestRoomToken })).toMatchObject({ janus: 'error', error: { code: 403 } });
    expect(await c.ask({ janus: 'claim', session_id: 702, token: agentRoomToken })).toMatchObject({ janus: 'error', error: { code: 403 } });
    expect(reached('claim')).toEqual([]);
    expect(await c.ask({ janus: 'claim', session_id: 701, token: agentRoomToken })).toMatchObject({ janus: 'success' });
    expect(await c.ask({ janus: 'claim', session_id: 702, token: guestRoomToken })).toMatchObject({ janus: 'success' });
    c.close();
  });

  it('when a standby token is used over HTTP (create, a session, its long poll), then it is refused as websocket-only', async () => {
    handlesOf.set('801', [handle('1', standby)]);
    const create = await app.inject({ method: 'POST', url: '/janus-http', payload: { janus: 'create', token: standby, transaction: 'h1' } });
    const claim = await app.inject({ method: 'POST', url: '/janus-http', payload: { janus: 'claim', session_id: 801, token: standby, transaction: 'h2' } });
    const keepalive = await app.inject({ method: 'POST', url: '/janus-http/801', payload: { janus: 'keepalive', token: standby, transaction: 'h3' } });
    const attach = await app.inject({ method: 'POST', url: '/janus-http/801/1', payload: { janus: 'detach', token: standby, transaction: 'h4' } });
    for (const res of [create, claim, keepalive, attach]) {
      expect(res.json()).toMatchObject({ janus: 'error', error: { code: 403, reason: STANDBY_REFUSAL } });
    }
    const poll = await app.inject({ method: 'GET', url: `/janus-http/801?token=${encodeURIComponent(standby)}` });
    expect(poll.statusCode).toBe(403);
    expect(poll.json()).toMatchObject({ janus: 'error', error: { code: 403, reason: STANDBY_REFUSAL } });
  });

  it("when a guest's HTTP session in the room is named with the agent's room token, then it is refused (a session is its participant's)", async () => {
    handlesOf.set('901', [handle('1', guestRoomToken, ROOM)]);
    // the gate has no record of 901 (it restarted): Janus's admin API tells whose handles they are
    const res = await app.inject({ method: 'POST', url: '/janus-http/901', payload: { janus: 'keepalive', token: agentRoomToken, transaction: 'h5' } });
    expect(res.json()).toMatchObject({ janus: 'error', error: { code: 403, reason: 'session_id: not a session of your token' } });
  });

  it("when a guest's HTTP session created through the gate is named with the agent's token of the same room, then it is refused; the guest's own passes", async () => {
    const created = await app.inject({ method: 'POST', url: '/janus-http', payload: { janus: 'create', token: guestRoomToken, transaction: 'h6' } });
    const id = created.json<{ data: { id: number } }>().data.id;
    const asAgent = await app.inject({ method: 'POST', url: `/janus-http/${id}`, payload: { janus: 'keepalive', token: agentRoomToken, transaction: 'h7' } });
    expect(asAgent.json()).toMatchObject({ janus: 'error', error: { code: 403, reason: 'session_id: not a session of your token' } });
    const asGuest = await app.inject({ method: 'POST', url: `/janus-http/${id}`, payload: { janus: 'keepalive', token: guestRoomToken, transaction: 'h8' } });
    expect(asGuest.json()).toMatchObject({ janus: 'ack' });
    expect(reached('keepalive')).toHaveLength(1);
  });
});
