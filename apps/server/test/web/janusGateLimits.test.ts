/**
 * docs/security.md "Media plane": a room token ends with its call (the gate refuses a create, claim or
 * attach once the server destroyed the call's room), and one room token creates at most
 * MAX_SESSIONS_PER_TOKEN sessions, over the websocket and HTTP together. The real gate in front of a fake
 * Janus that answers every create with a new session.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { MAX_SESSIONS_PER_TOKEN } from '../../src/services/media/sessionBudget.ts';
import type { App } from '../../src/typebox.ts';
import { registerJanusGate } from '../../src/web/janusGate.ts';
import { gateSocket } from '../helpers/gateSocket.ts';

const tokens = createJanusTokens('test-secret-test-secret');
const guestToken = (room: string, username = 'gab') => tokens.mint(room, 3600, { role: 'guest', username }).token;

describe('the gate ends a room token with its call and caps its sessions', () => {
  let janus: WebSocketServer;
  let janusHttp: Server;
  let app: App;
  let port: number;
  /** rooms the server destroyed (their calls ended) */
  const closed = new Set<string>();
  let ids = 100;
  const answer = (m: Record<string, unknown>) =>
    JSON.stringify(m.janus === 'create' || m.janus === 'attach' ? { janus: 'success', transaction: m.transaction, data: { id: ++ids } } : { janus: 'ack', transaction: m.transaction });

  beforeAll(async () => {
    janus = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'janus-protocol' });
    janus.on('connection', (ws) => ws.on('message', (data: Buffer) => ws.send(answer(JSON.parse(data.toString()) as Record<string, unknown>))));
    await new Promise((r) => janus.once('listening', r));
    janusHttp = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => res.setHeader('content-type', 'application/json').end(answer(JSON.parse(text) as Record<string, unknown>)));
    });
    await new Promise<void>((r) => janusHttp.listen(0, '127.0.0.1', r));
    app = Fastify();
    registerJanusGate(
      app,
      {
        janusWsUrl: `ws://127.0.0.1:${(janus.address() as AddressInfo).port}`,
        janusHttpUrl: `http://127.0.0.1:${(janusHttp.address() as AddressInfo).port}/janus`,
      } as Config,
      tokens,
      // a room the server destroyed has no secret any more
      { secretOf: (room) => Promise.resolve(closed.has(room) ? null : 'room-secret'), recordArmed: () => Promise.resolve(false), startRecording: () => Promise.resolve() },
      { handles: () => Promise.resolve([]) },
      { agentPublishing: () => undefined, agentSubscribed: () => undefined },
    );
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => {
    janus.close();
    janusHttp.close();
    await app.close();
  });

  const httpCreate = async (token: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/janus-http`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ janus: 'create', token, transaction: 't' }) });
    return (await res.json()) as Record<string, unknown>;
  };

  it('when one guest token creates sessions over HTTP and the websocket, then the ones past the cap are refused naming the token, and another token is not held back', async () => {
    const token = guestToken('gab--Cap1');
    const c = await gateSocket(port);
    const answers: Array<Record<string, unknown>> = [];
    for (let i = 0; i < MAX_SESSIONS_PER_TOKEN + 5; i++) answers.push(i % 2 ? await c.ask({ janus: 'create', token }) : await httpCreate(token));
    c.close();
    expect(answers.filter((a) => a.janus === 'success')).toHaveLength(MAX_SESSIONS_PER_TOKEN);
    expect(answers.slice(MAX_SESSIONS_PER_TOKEN).every((a) => a.janus === 'error')).toBe(true);
    expect(answers.at(-1)).toMatchObject({ error: { code: 403, reason: `token: at most ${MAX_SESSIONS_PER_TOKEN} sessions a token; use the one you have` } });
    expect((await httpCreate(guestToken('gab--Cap2'))).janus).toBe('success');
  });

  it("when the call's room was destroyed, then its still-valid token can no longer create, claim or attach, over HTTP or the websocket", async () => {
    const room = 'gab--Ended1';
    const token = guestToken(room);
    const live = await httpCreate(token);
    expect(live.janus).toBe('success');
    const session = (live.data as { id: number }).id;
    closed.add(room);

    const ended = "token: its call's media room is closed";
    expect(await httpCreate(token)).toMatchObject({ janus: 'error', error: { code: 403, reason: ended } });
    const attach = await fetch(`http://127.0.0.1:${port}/janus-http/${session}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ janus: 'attach', token, plugin: 'janus.plugin.videoroom', transaction: 't' }),
    });
    expect(await attach.json()).toMatchObject({ janus: 'error', error: { reason: ended } });
    const c = await gateSocket(port);
    expect(await c.ask({ janus: 'create', token })).toMatchObject({ janus: 'error', error: { reason: ended } });
    expect(await c.ask({ janus: 'claim', token, session_id: session })).toMatchObject({ janus: 'error', error: { reason: ended } });
    c.close();
  });
});
