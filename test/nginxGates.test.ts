/**
 * nginx in front of two Janus gates (LOBBY_JANUS_GATES=2, scripts/lib/gates.sh) and its retry policy
 * (docs/operations.md "Several Janus gates"): websockets to /janus and requests to /janus-http go to both
 * gates; when a gate refuses connections (killed), a websocket, a long poll and a POST all go to the other;
 * a POST a gate read and then died with is never sent to the other (no Janus request sent twice). Two
 * stand-ins play the gates.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from './freePort.ts';
import { type Front, startFront } from './nginxFront.ts';
import { portsApart } from './portsApart.ts';
import { StandIn } from './standIn.ts';

/** A request through nginx: the gate that answered it (its header), or nginx's own status. */
function request(port: number, method: 'GET' | 'POST', path: string): Promise<{ status: number; gate: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: method === 'POST' ? { 'content-type': 'application/json' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, gate: res.headers['x-lobby-gate'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{"janus":"keepalive"}' : undefined);
  });
}

/** Websockets a test keeps open (a call's), ended after each test. */
const open = new Set<Duplex>();

/** A websocket handshake to /janus through nginx: the gate that switched protocols, or nginx's status; `keep` leaves the websocket open. */
function upgrade(port: number, keep = false): Promise<{ status: number; gate: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/janus',
      agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol': 'janus-protocol' },
    });
    req.on('upgrade', (res, socket) => {
      if (keep) open.add(socket);
      else socket.destroy();
      resolve({ status: res.statusCode ?? 0, gate: res.headers['x-lobby-gate'] as string | undefined });
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, gate: undefined });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('nginx over two Janus gates (LOBBY_JANUS_GATES=2)', () => {
  let front: Front | undefined;
  let one: StandIn;
  let two: StandIn;
  const httpPort = () => front?.http ?? 0;

  beforeAll(async () => {
    const ports = await portsApart();
    one = new StandIn('x-lobby-gate', '1', ports[0]);
    two = new StandIn('x-lobby-gate', '2', ports[1]);
  });
  // a fresh nginx per test
  beforeEach(async () => {
    await one.listen();
    await two.listen();
    front = await startFront('0', await freePort(), { LOBBY_JANUS_GATES: '2', JANUS_GATE_PORT: String(one.port) });
  }, 60_000);
  afterEach(async () => {
    for (const socket of open) socket.destroy();
    open.clear();
    await front?.stop();
    front = undefined;
    for (const gate of [one, two]) {
      await gate.close();
      gate.mode = 'ok';
      gate.seen = [];
    }
  });

  it('when browsers open websockets and long polls, then both gates take them in turn', async () => {
    const answered = new Set<string | undefined>();
    for (let i = 0; i < 4; i++) answered.add((await upgrade(httpPort())).gate);
    for (let i = 0; i < 4; i++) answered.add((await request(httpPort(), 'GET', `/janus-http/${i + 1}?token=t`)).gate);
    expect(answered).toEqual(new Set(['1', '2']));
  }, 30_000);

  it('when a gate refuses connections (killed), then websockets, long polls and POSTs all go to the other', async () => {
    await one.close();
    for (let i = 0; i < 3; i++) {
      expect(await upgrade(httpPort())).toEqual({ status: 101, gate: '2' });
      expect(await request(httpPort(), 'GET', '/janus-http/1?token=t')).toEqual({ status: 200, gate: '2' });
      expect(await request(httpPort(), 'POST', '/janus-http/1')).toEqual({ status: 200, gate: '2' });
    }
  }, 30_000);

  it('when a gate came back while calls held their websockets, and then the other gate dies, then new websockets reach the gate that came back', async () => {
    // gate 2 down while calls start: their websockets are on gate 1 (nginx tried gate 2 for some)
    await two.close();
    for (let i = 0; i < 3; i++) expect(await upgrade(httpPort(), true)).toEqual({ status: 101, gate: '1' });
    // gate 2 back; later calls (past any fail_timeout nginx could have) hold websockets on both
    await two.listen();
    await new Promise((r) => setTimeout(r, 10_500));
    for (let i = 0; i < 3; i++) expect((await upgrade(httpPort(), true)).status).toBe(101);
    // gate 1 dies: every reconnection reaches gate 2 (a gate held out "on probation" by a websocket would be no live upstream)
    await one.close();
    for (let i = 0; i < 3; i++) expect(await upgrade(httpPort())).toEqual({ status: 101, gate: '2' });
  }, 40_000);

  it('when a gate dies with a POST already sent to it, then nginx answers 502 and never sends that POST to the other gate', async () => {
    one.mode = 'cut';
    two.mode = 'cut';
    const post = await request(httpPort(), 'POST', '/janus-http/1/2');
    expect(post.status).toBe(502);
    expect([...one.seen, ...two.seen]).toEqual(['POST /janus-http/1/2']);
  }, 30_000);
});

describe('nginx over one Janus gate (the default)', () => {
  it('when LOBBY_JANUS_GATES is not set, then the upstream is the one gate on JANUS_GATE_PORT', async () => {
    const port = await freePort();
    const gate = new StandIn('x-lobby-gate', '1', port);
    await gate.listen();
    const front = await startFront('0', await freePort(), { JANUS_GATE_PORT: String(port) });
    try {
      expect(await upgrade(front.http)).toEqual({ status: 101, gate: '1' });
      expect(await request(front.http, 'GET', '/janus-http/1?token=t')).toEqual({ status: 200, gate: '1' });
    } finally {
      await front.stop();
      await gate.close();
    }
  }, 30_000);
});
