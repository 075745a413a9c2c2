// The drain of plugins/external/drain.ts (docs/operations.md "Scaling"): what nginx and a console see
// while one instance of several stops on SIGTERM.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { login } from '../helpers/fixtures.ts';
import { connect } from '../helpers/sse.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A login whose body arrives in two halves, `gapMs` apart: a request in flight while the drain begins. */
function slowLogin(port: number, started: () => void, gapMs: number): Promise<Answer> {
  const body = JSON.stringify({ email: DEMO.agentEmail, password: DEMO.agentPassword });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/console/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    // the server has read the headers (onRequest ran) once the socket is connected and a moment passed
    req.on('socket', (s) => s.on('connect', () => setTimeout(started, 50)));
    setTimeout(() => req.end(body.slice(10)), gapMs);
  });
}

function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      })
      .on('error', reject);
  });
}

describe('drain (plugins/external/drain.ts)', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function start(instance = 'b2'): Promise<{ t: TestContext; port: number }> {
    t = await createTestContext('sqlite', { config: { instance, drainSeconds: 5 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { t, port: (t.app.server.address() as AddressInfo).port };
  }

  it('when any request is answered, then the response names the instance, an event stream too', async () => {
    const { t, port } = await start('east-2');
    expect((await get(port, '/api/health')).headers['x-lobby-instance']).toBe('east-2');
    const missing = await get(port, '/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-lobby-instance']).toBe('east-2');
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/console/events', headers: { cookie } }, resolve);
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-lobby-instance']).toBe('east-2');
    res.destroy();
  });

  it('when it drains, then a request in flight is finished (with Connection: close), event streams get `closing` and end, and then it is done', async () => {
    const { t, port } = await start();
    const sse = await connect(port, await login(t.app, DEMO.agentEmail, DEMO.agentPassword));
    expect(sse.status).toBe(200);
    let streamEnded = false;
    const ended = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (sse.events.some((e) => e.event === 'closing')) {
          streamEnded = true;
          clearInterval(check);
          resolve();
        }
      }, 10);
    });

    let drained: Promise<boolean> | undefined;
    let drainedAt = 0;
    const login2 = slowLogin(
      port,
      () => {
        drained = t.app.drain.begin().then((ok) => {
          drainedAt = Date.now();
          return ok;
        });
      },
      400,
    );
    const answer = await login2;
    const answeredAt = Date.now();
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['x-lobby-instance']).toBe('b2');
    await ended;
    expect(streamEnded).toBe(true);
    expect(await drained).toBe(true);
    // the drain waited for the login in flight
    expect(drainedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(t.app.drain.draining).toBe(true);
    // no new connection is taken
    await expect(get(port, '/api/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('when it drains, then a GET still reaching it is answered 503 (nginx passes it to another instance) and a POST is served', async () => {
    const { t } = await start();
    void t.app.drain.begin();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode, health.body).toBe(503);
    expect(health.headers['retry-after']).toBe('1');
    expect(health.json()).toMatchObject({ statusCode: 503, message: 'server: instance b2 is draining; ask another instance' });
    const post = await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: DEMO.agentEmail, password: DEMO.agentPassword } });
    expect(post.statusCode).toBe(200);
    expect(post.headers.connection).toBe('close');
  });
});
