/**
 * docs/operations.md "Several Janus gates": a session made through one gate is used through another, over
 * the websocket (a `claim` after the first gate died) and over HTTP (its requests and its long poll), when
 * Janus's admin API tells that the session's handles are the token's (docs/protocol.md "Session reclaim"):
 * the token proves it, not the memory of the gate that made it. Two real gates in front of one fake Janus.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { JanusSessions, SessionHandle } from '../../src/services/media/janusSessions.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import type { App } from '../../src/typebox.ts';
import { registerJanusGate } from '../../src/web/janusGate.ts';
import { fakeJanus } from '../helpers/fakeJanus.ts';
import { gateSocket } from '../helpers/gateSocket.ts';

const ROOM = 'gab--Room';
const tokens = createJanusTokens('test-secret-test-secret');
const guestToken = tokens.mint(ROOM, 3600, { role: 'guest', username: 'gab' }).token;
const otherGuestToken = tokens.mint(ROOM, 3600, { role: 'guest', username: 'gzz' }).token;

/** A fake Janus: `create` makes a session, `claim` answers its session, the rest is acked. */
function startJanus() {
  let ids = 5000;
  return fakeJanus(
    (m) =>
      m?.janus === 'create'
        ? { janus: 'success', transaction: m.transaction, data: { id: ++ids } }
        : m?.janus === 'claim'
          ? { janus: 'success', transaction: m.transaction, session_id: m.session_id }
          : { janus: 'ack', transaction: m?.transaction, session_id: m?.session_id },
    [{ janus: 'keepalive' }],
  );
}

describe('two gates in front of one Janus', () => {
  let janus: Awaited<ReturnType<typeof startJanus>>;
  const gates: App[] = [];
  const ports: number[] = [];
  /** Janus's admin API: every session has one handle in the room, attached with the guest's token */
  const sessions: JanusSessions = {
    handles: (session) =>
      Promise.resolve(/^\d+$/.test(session) ? [{ handle: '1', room: ROOM, publisher: { screen: false }, token: guestToken } satisfies SessionHandle] : null),
  };

  beforeAll(async () => {
    janus = await startJanus();
    const config = { janusWsUrl: janus.wsUrl, janusHttpUrl: janus.httpUrl } as Config;
    const rooms = { secretOf: () => Promise.resolve('room-secret'), recordArmed: () => Promise.resolve(false), startRecording: () => Promise.resolve() };
    for (let i = 0; i < 2; i++) {
      const app = Fastify() as unknown as App;
      registerJanusGate(app, config, tokens, rooms, sessions, { agentPublishing: () => undefined, agentSubscribed: () => undefined });
      ports.push(Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port));
      gates.push(app);
    }
  });
  afterAll(async () => {
    janus.close();
    for (const app of gates) await app.close();
  });

  it('when the websocket that made a session through gate 1 drops, then the session is claimed through gate 2 with its token, and used there', async () => {
    const first = await gateSocket(ports[0]!);
    const created = await first.ask({ janus: 'create', token: guestToken });
    const session = (created.data as { id: number }).id;
    first.ws.terminate();

    const second = await gateSocket(ports[1]!);
    try {
      // not this connection's session yet: refused until claimed
      expect(await second.ask({ janus: 'keepalive', token: guestToken, session_id: session })).toMatchObject({ janus: 'error', error: { code: 403 } });
      expect(await second.ask({ janus: 'claim', token: guestToken, session_id: session })).toMatchObject({ janus: 'success', session_id: session });
      expect(await second.ask({ janus: 'keepalive', token: guestToken, session_id: session })).toMatchObject({ janus: 'ack', session_id: session });
    } finally {
      second.close();
    }
  });

  it("when another participant's token claims that session through gate 2, then it is refused", async () => {
    const socket = await gateSocket(ports[1]!);
    try {
      expect(await socket.ask({ janus: 'claim', token: otherGuestToken, session_id: 5999 })).toMatchObject({
        janus: 'error',
        error: { code: 403, reason: 'session_id: not a session of your token' },
      });
    } finally {
      socket.close();
    }
  });

  it('when a session is made over /janus-http through gate 1, then its requests and long poll pass through gate 2 with its token, and not with another', async () => {
    const post = async (port: number, path: string, body: Record<string, unknown>) =>
      (await (await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
    const created = await post(ports[0]!, '/janus-http', { janus: 'create', token: guestToken, transaction: 'c' });
    const session = (created.data as { id: number }).id;
    expect(await post(ports[1]!, `/janus-http/${session}`, { janus: 'keepalive', token: guestToken, transaction: 'k' })).toMatchObject({ janus: 'ack' });
    const poll = await fetch(`http://127.0.0.1:${ports[1]!}/janus-http/${session}?token=${encodeURIComponent(guestToken)}`);
    expect(poll.status).toBe(200);
    expect(await poll.json()).toEqual([{ janus: 'keepalive' }]);
    expect(await post(ports[1]!, `/janus-http/${session}`, { janus: 'keepalive', token: otherGuestToken, transaction: 'o' })).toMatchObject({
      janus: 'error',
      error: { code: 403, reason: 'session_id: not a session of your token' },
    });
  });
});
