/**
 * docs/operations.md "Scaling": with several Janus nodes the gate sends each request to the node of its
 * token's room (the room's row names it: services/media/janusRouter.ts), over the websocket and HTTP,
 * so browsers keep one origin. The real gate in front of two fake Janus nodes, each of which signs its
 * answers with its name.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, JanusNodeEndpoints } from '../../src/config.ts';
import { createJanusRouter } from '../../src/services/media/janusRouter.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import type { App } from '../../src/typebox.ts';
import { registerJanusGate } from '../../src/web/janusGate.ts';
import { fakeJanus } from '../helpers/fakeJanus.ts';
import { gateSocket } from '../helpers/gateSocket.ts';

const tokens = createJanusTokens('test-secret-test-secret');
const guestToken = (room: string) => tokens.mint(room, 3600, { role: 'guest', username: 'gab' }).token;
const standbyToken = () => tokens.mint(null, 3600, { role: 'agent', username: 'agent-18' }).token;

/** A fake Janus: websocket and HTTP APIs whose every answer carries its node's name. */
async function fakeNode(name: string) {
  let ids = name === 'janus-a' ? 1000 : 2000;
  const janus = await fakeJanus(
    (m) =>
      m?.janus === 'create'
        ? { janus: 'success', transaction: m.transaction, node: name, data: { id: ++ids } }
        : { janus: 'ack', transaction: m?.transaction, node: name },
    [{ janus: 'keepalive', node: name }],
  );
  const endpoints: JanusNodeEndpoints = { name, wsUrl: janus.wsUrl, httpUrl: janus.httpUrl, adminUrl: 'http://127.0.0.1:9/admin' };
  return { endpoints, close: janus.close };
}

describe('the gate routes each request to its room’s Janus node', () => {
  let a: Awaited<ReturnType<typeof fakeNode>>;
  let b: Awaited<ReturnType<typeof fakeNode>>;
  let app: App;
  let port: number;
  /** the rooms' rows: which node each is on */
  const placed = new Map([
    ['gab--OnA', 'janus-a'],
    ['gab--OnB', 'janus-b'],
  ]);
  /** the rooms whose node the gate looked up, in order */
  const lookedUp: string[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([fakeNode('janus-a'), fakeNode('janus-b')]);
    const byName = new Map([a, b].map((n) => [n.endpoints.name, n.endpoints]));
    const endpoints = (name: string | null) =>
      name === null ? a.endpoints : (byName.get(name) ?? a.endpoints);
    const rooms = {
      secretOf: () => Promise.resolve('room-secret'),
      recordArmed: () => Promise.resolve(false),
      startRecording: () => Promise.resolve(),
      nodeOf: (room: string) => {
        lookedUp.push(room);
        return Promise.resolve(placed.get(room) ?? null);
      },
    };
    app = Fastify();
    // the default sessions (one node's) are not used: each node's come from the router
    registerJanusGate(
      app,
      {} as Config,
      tokens,
      rooms,
      { handles: () => Promise.resolve(null) },
      { agentPublishing: () => undefined, agentSubscribed: () => undefined },
      createJanusRouter({ endpoints }, rooms, 'admin-secret'),
    );
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => {
    a.close();
    b.close();
    await app.close();
  });

  it('when two browsers open /janus with tokens of rooms on two nodes, then each one’s requests reach its room’s node', async () => {
    const onA = await gateSocket(port);
    const onB = await gateSocket(port);
    const createdA = await onA.ask({ janus: 'create', token: guestToken('gab--OnA') });
    const createdB = await onB.ask({ janus: 'create', token: guestToken('gab--OnB') });
    expect(createdA).toMatchObject({ janus: 'success', node: 'janus-a' });
    expect(createdB).toMatchObject({ janus: 'success', node: 'janus-b' });
    const sessionB = (createdB.data as { id: number }).id;
    expect(
      await onB.ask({ janus: 'keepalive', session_id: sessionB, token: guestToken('gab--OnB') }),
    ).toMatchObject({ janus: 'ack', node: 'janus-b' });
    onA.close();
    onB.close();
  });

  it('when a connection sends many requests with its token, then the room’s node is looked up once for it', async () => {
    const c = await gateSocket(port);
    const token = guestToken('gab--OnA');
    const before = lookedUp.length;
    const created = await c.ask({ janus: 'create', token });
    const session = (created.data as { id: number }).id;
    for (let i = 0; i < 3; i++)
      expect(await c.ask({ janus: 'keepalive', session_id: session, token })).toMatchObject({
        node: 'janus-a',
      });
    expect(lookedUp.slice(before)).toEqual(['gab--OnA']);
    c.close();
  });

  it('when a connection bound to one node is sent a token of a room on another, then the request is refused naming the token', async () => {
    const c = await gateSocket(port);
    await c.ask({ janus: 'create', token: guestToken('gab--OnB') });
    expect(await c.ask({ janus: 'create', token: guestToken('gab--OnA') })).toMatchObject({
      janus: 'error',
      error: { code: 403, reason: "token: its room is on another Janus node than this connection's" },
    });
    c.close();
  });

  it('when a browser uses /janus-http, then its create, its session’s requests and its long poll reach its room’s node', async () => {
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const token = guestToken('gab--OnB');
    const created = await post('/janus-http', { janus: 'create', token, transaction: 't1' });
    expect(created).toMatchObject({ janus: 'success', node: 'janus-b' });
    const session = (created.data as { id: number }).id;
    expect(
      await post(`/janus-http/${session}`, { janus: 'keepalive', token, transaction: 't2' }),
    ).toMatchObject({ node: 'janus-b' });
    const poll = await fetch(
      `http://127.0.0.1:${port}/janus-http/${session}?token=${encodeURIComponent(token)}`,
    );
    expect(await poll.json()).toEqual([{ janus: 'keepalive', node: 'janus-b' }]);
    expect(
      await post('/janus-http', { janus: 'create', token: guestToken('gab--OnA'), transaction: 't3' }),
    ).toMatchObject({ node: 'janus-a' });
  });

  it('when an agent’s standby token opens a session, then it goes to the first node', async () => {
    const c = await gateSocket(port);
    expect(await c.ask({ janus: 'create', token: standbyToken() })).toMatchObject({
      janus: 'success',
      node: 'janus-a',
    });
    c.close();
  });
});
