import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { createCompany } from '../../src/db/createCompany.ts';
import { createMediaRoomsRepository } from '../../src/repositories/mediaRooms.ts';
import { createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';

function dist(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lobby-${name}-`));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>${name}</title>`);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), `console.log(${JSON.stringify(name)})`);
  return dir;
}

describe('front ends, proxies and security headers', () => {
  let t: TestContext;
  let upstream: http.Server;
  let wss: WebSocketServer;
  let upstreamPort: number;
  let port: number;
  const seen: Array<{ url: string; protocol: string }> = [];

  beforeAll(async () => {
    // One fake upstream for XMPP and Janus: echoes websocket messages and HTTP paths.
    upstream = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url }));
    });
    wss = new WebSocketServer({
      server: upstream,
      handleProtocols: (protocols) => [...protocols][0] ?? false,
    });
    wss.on('connection', (ws, req) => {
      seen.push({ url: req.url ?? '', protocol: ws.protocol });
      ws.on('message', (m: Buffer) => ws.send(`echo:${m.toString()}`));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamPort = (upstream.address() as AddressInfo).port;

    t = await createTestContext('sqlite', {
      seed: false,
      config: {
        guestDist: dist('guest'),
        consoleDist: dist('console'),
        ejabberdWsUrl: `ws://127.0.0.1:${upstreamPort}/ws`,
        janusWsUrl: `ws://127.0.0.1:${upstreamPort}`,
        janusHttpUrl: `http://127.0.0.1:${upstreamPort}/janus`,
        // the gate routes each room to its node's endpoints (docs/operations.md "Several Janus nodes")
        janusNodes: [
          {
            name: 'janus-1',
            wsUrl: `ws://127.0.0.1:${upstreamPort}`,
            httpUrl: `http://127.0.0.1:${upstreamPort}/janus`,
            adminUrl: `http://127.0.0.1:${upstreamPort}/admin`,
          },
        ],
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    wss.close();
    await new Promise((r) => upstream.close(r));
  });

  it('when / or /appointment/<ref> is asked, then the guest index.html is served; assets are files', async () => {
    for (const url of ['/', '/appointment/abc-123', '/appointment/x/y']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>guest</title>');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toContain('"guest"');
  });

  it('when /console/ or a console route is asked, then the console index.html is served', async () => {
    for (const url of ['/console/', '/console/queue', '/console/admin/settings']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>console</title>');
    }
    expect((await t.app.inject({ method: 'GET', url: '/console/assets/app.js' })).body).toContain(
      '"console"',
    );
    const bare = await t.app.inject({ method: 'GET', url: '/console' });
    expect(bare.statusCode).toBe(302);
  });

  it('when an unknown /api path is asked, then JSON 404, not the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('/api/nope');
  });

  it('when a browser asks for an unknown page, then the guest app answers 404 with its document (its not-found screen), while other clients get JSON', async () => {
    for (const url of ['/nosuchpage', '/a/b?c=d']) {
      const page = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('<title>guest</title>');
    }
    const script = await t.app.inject({ method: 'GET', url: '/nosuchpage', headers: { accept: '*/*' } });
    expect(script.statusCode).toBe(404);
    expect(script.json<{ message: string }>().message).toContain('/nosuchpage');
    const api = await t.app.inject({ method: 'GET', url: '/api/nope', headers: { accept: 'text/html' } });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    const post = await t.app.inject({ method: 'POST', url: '/nosuchpage', headers: { accept: 'text/html' } });
    expect(post.headers['content-type']).toMatch(/^application\/json/);
  });

  it("when a page is served, then the CSP allows same-origin ws/wss, blob:/mediastream: media, data:/blob: images and WebAssembly but no eval", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'calls.example.com' } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' ws://calls.example.com wss://calls.example.com");
    expect(csp).toContain("media-src 'self' blob: mediastream:");
    expect(csp).toMatch(/img-src 'self' data: blob:/);
    // RNNoise's WebAssembly (noise suppression) is compiled; JavaScript's eval stays refused
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  const pageOnly = [
    'content-security-policy',
    'x-frame-options',
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'referrer-policy',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];

  it('when the API answers JSON (a result or an error), then it carries nosniff and CORP and none of the headers only a page obeys', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/nope' }),
      await t.app.inject({ method: 'POST', url: '/api/call-report/add', payload: {} }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 401]);
    for (const res of answers) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      for (const name of pageOnly) expect(res.headers[name], name).toBeUndefined();
    }
  });

  it('when a page, a script or a page-not-found is served, then it carries the CSP and every header a page obeys', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/' }),
      await t.app.inject({ method: 'GET', url: '/console/' }),
      await t.app.inject({ method: 'GET', url: '/assets/app.js' }),
      await t.app.inject({ method: 'GET', url: '/nosuchpage', headers: { accept: 'text/html' } }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 404]);
    for (const res of answers) {
      expect(String(res.headers['content-security-policy'])).toMatch(
        /^default-src 'self'; .*frame-ancestors 'self'/,
      );
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      for (const name of pageOnly) expect(res.headers[name], name).toBeDefined();
    }
  });

  it('when a browser opens /xmpp-websocket with subprotocol xmpp, then it reaches ejabberd /ws with that subprotocol', async () => {
    const reply = await wsRoundTrip(`ws://127.0.0.1:${port}/xmpp-websocket`, 'xmpp', '<open/>');
    expect(reply).toEqual({ protocol: 'xmpp', message: 'echo:<open/>' });
    expect(seen.at(-1)).toEqual({ url: '/ws', protocol: 'xmpp' });
  });

  it('when a browser opens /janus with a token of a room, then its request reaches Janus with the janus-protocol subprotocol', async () => {
    // the token's call has its media room (the gate refuses a token whose room is closed: janusGateLimits.test.ts)
    const made = await createCompany(t.db, {
      name: 'Web',
      host: 'web.example.com',
      adminEmail: 'admin@web.example.com',
      adminName: 'Admin',
      adminPassword: 'a long enough password',
    });
    if (!('companyId' in made)) throw new Error(made.error);
    await createMediaRoomsRepository(t.db.kysely).add({
      call_id: 'g1--room',
      company_id: made.companyId,
      pin: 'pin',
      secret: 'secret',
      created_at: t.clock.now,
      janus_node: 'janus-1',
    });
    const token = createJanusTokens(t.config.janusTokenSecret).mint('g1--room', 60, {
      role: 'guest',
      username: 'g1',
    }).token;
    const create = JSON.stringify({ janus: 'create', transaction: 't1', token });
    const reply = await wsRoundTrip(`ws://127.0.0.1:${port}/janus`, 'janus-protocol', create);
    expect(reply).toEqual({ protocol: 'janus-protocol', message: `echo:${create}` });
    expect(seen.at(-1)?.protocol).toBe('janus-protocol');
  });

  it('when a browser asks /janus for info or anything without a token, then the gate answers an error and Janus never sees it', async () => {
    const before = seen.length;
    for (const message of ['{"janus":"info","transaction":"i"}', '{"janus":"create","transaction":"c"}']) {
      const reply = await wsRoundTrip(`ws://127.0.0.1:${port}/janus`, 'janus-protocol', message);
      expect(JSON.parse(reply.message) as unknown, message).toMatchObject({
        janus: 'error',
        error: { code: 403 },
      });
    }
    // the gate opens its upstream per client, but no request passed it
    expect(seen.slice(before).every((s) => s.protocol === 'janus-protocol')).toBe(true);
  });

  it('when /janus-http/info or a POST without a token is asked, then nothing is forwarded to Janus', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/janus-http/info' });
    expect(info.statusCode).toBe(403);
    expect(info.body).not.toContain('/janus/info');
    const create = await t.app.inject({
      method: 'POST',
      url: '/janus-http',
      payload: { janus: 'create', transaction: 'x' },
    });
    expect(create.json()).toMatchObject({ janus: 'error', error: { code: 403 } });
  });

  it('when /api/docs is asked, then the OpenAPI UI and document answer with every API route', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(200);
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/guest/register',
        '/api/guest-auth',
        '/api/guest/details',
        '/api/company/details',
        '/api/call-report/add',
        '/api/call-report/update-timestamp',
        '/api/call-report/update',
        '/api/console/login',
        '/api/console/logout',
        '/api/console/me',
        '/api/console/xmpp-token',
        '/api/console/rooms',
        '/api/console/events',
      ]),
    );
  });
});

describe('front ends not built', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', { seed: false });
  });
  afterAll(async () => t.close());

  it('when a dist folder is missing, then the pages answer 503 text saying what to build', async () => {
    for (const url of ['/', '/appointment/1', '/console/', '/console/queue']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toContain('not built');
    }
  });
});

describe('route access declarations', () => {
  it('when a route under /api does not declare who may call it, then the app refuses to start', async () => {
    const { buildApp } = await import('../../src/app.ts');
    const { testConfig } = await import('../helpers/context.ts');
    const { openDb } = await import('../../src/db/database.ts');
    const db = openDb('sqlite::memory:');
    const app = await buildApp(testConfig(), { db, logger: false, web: false });
    expect(() => app.get('/api/undeclared', () => ({}))).toThrow(/config.access/);
    await app.close();
    await db.close();
  });

  it('when a route declares its access, then GET and its HEAD are checked before the own hooks of the route, which see query integers as numbers', async () => {
    const { buildApp } = await import('../../src/app.ts');
    const { testConfig } = await import('../helpers/context.ts');
    const { openDb } = await import('../../src/db/database.ts');
    const { migrateToLatest } = await import('../../src/db/migrate.ts');
    const db = openDb('sqlite::memory:');
    // the app's ready hooks read its tables (round robin's presence): a migrated database, as always
    await migrateToLatest(db);
    const app = await buildApp(testConfig(), { db, logger: false, web: false });
    const seen: unknown[] = [];
    const probe = (access: 'console' | 'guest' | 'guestOrConsole' | 'public') => ({
      config: { access },
      schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } },
      preValidation: (request: { query: unknown }, _reply: unknown, done: () => void) => {
        seen.push((request.query as { n: unknown }).n);
        done();
      },
    });
    for (const access of ['console', 'guest', 'guestOrConsole', 'public'] as const)
      app.get(`/api/probe-${access}`, probe(access), () => ({ ok: true }));
    const statuses: Record<string, number[]> = {};
    for (const access of ['console', 'guest', 'guestOrConsole']) {
      const ask = (method: 'GET' | 'HEAD', headers: Record<string, string> = {}) =>
        app.inject({ method, url: `/api/probe-${access}?n=3`, headers }).then((r) => r.statusCode);
      statuses[access] = [
        await ask('GET'),
        await ask('HEAD'),
        await ask('GET', { authorization: 'Bearer forged' }),
      ];
    }
    expect(statuses).toEqual({
      console: [401, 401, 401],
      guest: [401, 401, 401],
      guestOrConsole: [401, 401, 401],
    });
    expect(seen).toEqual([]);
    const open = await app.inject({ method: 'GET', url: '/api/probe-public?n=3' });
    expect(open.statusCode).toBe(200);
    expect(seen).toEqual([3]);
    await app.close();
    await db.close();
  });
});

function wsRoundTrip(
  url: string,
  protocol: string,
  message: string,
): Promise<{ protocol: string; message: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocol);
    const timer = setTimeout(() => reject(new Error('timeout')), 3000);
    ws.on('open', () => ws.send(message));
    ws.on('message', (m: Buffer) => {
      clearTimeout(timer);
      resolve({ protocol: ws.protocol, message: m.toString() });
      ws.close();
    });
    ws.on('error', reject);
  });
}
