/**
 * nginx in front of two Lobby server instances (LOBBY_INSTANCES=2, scripts/lib/instances.sh) and its retry
 * policy (docs/operations.md "Scaling"): requests in turn to both; a refused connect goes to the other
 * instance whatever the method; a GET answered 503 (a draining instance) or cut goes to the other; a POST
 * already sent to an instance that dies is never sent to the other (no call opened twice). Two stand-ins
 * play the instances; the front doors (LOBBY_FRONT_DOORS=1) each prefer their own.
 */
import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Front, startFront } from './nginxFront.ts';
import { portsApart } from './portsApart.ts';
import { StandIn } from './standIn.ts';

function request(port: number, method: 'GET' | 'POST', path = '/api/thing'): Promise<{ status: number; instance: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: method === 'POST' ? { 'content-type': 'application/json' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, instance: res.headers['x-lobby-instance'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('nginx over two Lobby server instances (LOBBY_INSTANCES=2)', () => {
  let front: Front | undefined;
  let one: StandIn;
  let two: StandIn;
  let ports: [number, number];
  const httpPort = () => front?.http ?? 0;

  beforeAll(async () => {
    ports = await portsApart();
    one = new StandIn('x-lobby-instance', '1', ports[0]);
    two = new StandIn('x-lobby-instance', '2', ports[1]);
  });
  // a fresh nginx per test: an instance that failed stays out of the rotation for fail_timeout (10 s)
  beforeEach(async () => {
    await one.listen();
    await two.listen();
    front = await startFront('0', ports[0], { LOBBY_INSTANCES: '2', DATABASE_URL: 'postgres://x@127.0.0.1/x', LOBBY_FRONT_DOORS: '1' });
  }, 60_000);
  afterEach(async () => {
    await front?.stop();
    front = undefined;
    for (const instance of [one, two]) {
      await instance.close();
      instance.mode = 'ok';
      instance.seen = [];
    }
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('when requests come in, then both instances answer them in turn', async () => {
    const answered = new Set<string | undefined>();
    for (let i = 0; i < 6; i++) answered.add((await request(httpPort(), 'GET')).instance);
    expect(answered).toEqual(new Set(['1', '2']));
  }, 30_000);

  it('when an instance refuses connections (stopped or draining), then GETs and POSTs alike go to the other', async () => {
    await one.close();
    for (let i = 0; i < 3; i++) {
      expect(await request(httpPort(), 'GET')).toEqual({ status: 200, instance: '2' });
      expect(await request(httpPort(), 'POST')).toEqual({ status: 200, instance: '2' });
    }
  }, 30_000);

  it('when an instance answers a GET with 503 (it drains), then the GET is answered by the other', async () => {
    one.mode = 'busy';
    for (let i = 0; i < 4; i++) expect(await request(httpPort(), 'GET', `/api/get-${i}`)).toEqual({ status: 200, instance: '2' });
    // instance 1 was asked, said 503, and nginx asked instance 2
    expect(one.seen.length).toBeGreaterThan(0);
  }, 30_000);

  it('when an instance dies with a POST already sent to it, then nginx answers 502 and never sends that POST to the other', async () => {
    one.mode = 'cut';
    two.mode = 'cut';
    // both cut: whichever instance the POST reaches, it reaches only that one
    const post = await request(httpPort(), 'POST', '/api/call-report/add');
    expect(post.status).toBe(502);
    expect([...one.seen, ...two.seen]).toEqual(['POST /api/call-report/add']);
  }, 30_000);

  it('when an instance dies with a GET sent to it, then the other instance answers that GET', async () => {
    two.mode = 'cut';
    for (let i = 0; i < 4; i++) expect(await request(httpPort(), 'GET', `/api/idempotent-${i}`)).toEqual({ status: 200, instance: '1' });
    expect(two.seen.length).toBeGreaterThan(0);
  }, 30_000);

  it('when a browser comes through a front door, then the instance it prefers answers, and the other when it is down', async () => {
    const doorOf = (i: number) => httpPort() + 4 + i;
    expect((await request(doorOf(1), 'GET')).instance).toBe('1');
    expect((await request(doorOf(2), 'GET')).instance).toBe('2');
    expect((await request(doorOf(2), 'GET')).instance).toBe('2');
    await two.close();
    expect(await request(doorOf(2), 'POST')).toEqual({ status: 200, instance: '1' });
  }, 30_000);
});
