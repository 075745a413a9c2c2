/**
 * Two server instances on one database (docs/operations.md "Shared state: jobs, limits and files"): what
 * a client does through one is what the other enforces and serves. Each instance is its own app from the
 * app factory, with its own connections and its own data dir (helpers/secondInstance.ts).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_FAILURES } from '../../src/services/loginThrottle.ts';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { PNG_BYTES, addUser, bearer, login, multipart, registerGuest } from '../helpers/fixtures.ts';
import type { RegisteredGuest } from '../helpers/fixtures.ts';
import { secondInstance, type SecondInstance } from '../helpers/secondInstance.ts';
import type { App } from '../../src/typebox.ts';

const LOGIN_LIMIT = 6;

describe.each(dialects())('two server instances on one database (%s)', (dialect) => {
  let t: TestContext;
  let b: SecondInstance;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { loginRateLimit: LOGIN_LIMIT } });
    b = await secondInstance(t);
  });
  afterAll(async () => {
    await b.close();
    await t.close();
  });

  const loginOn = (app: App, email: string, password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/console/login', payload: { email, password }, remoteAddress });

  it('when wrong passwords alternate between the instances, then they are throttled as one count', async () => {
    const u = await addUser(t.db, { companyId: DEMO.companyId, password: 'right-password-1' });
    const apps = [t.app, b.app];
    for (let i = 0; i < FREE_FAILURES; i++) expect((await loginOn(apps[i % 2]!, u.email, 'wrong-guess', '203.0.113.77')).statusCode).toBe(401);
    // the next try waits, on either instance, even with the right password
    for (const app of apps) {
      const early = await loginOn(app, u.email, u.password, '203.0.113.77');
      expect(early.statusCode, early.body).toBe(429);
      expect(early.json<{ message: string }>().message).toMatch(/^email: too many wrong passwords/);
    }
  });

  it('when a rate limit is split across the instances, then it holds at its value', async () => {
    const answers: number[] = [];
    // distinct unknown emails: the login throttle never steps in, only the per-address limit counts
    for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
      const res = await loginOn(i % 2 ? b.app : t.app, `nobody-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`, 'x', '198.51.100.200');
      answers.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json<{ message: string }>().message).toMatch(/^rate limit exceeded/);
    }
    expect(answers).toEqual([...Array<number>(LOGIN_LIMIT).fill(401), 429, 429]);
  });

  it('when a guest passes the geofence on one instance, then the other opens its call', async () => {
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [46.6, 24.6],
          [46.8, 24.6],
          [46.8, 24.8],
          [46.6, 24.8],
          [46.6, 24.6],
        ],
      ],
    };
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/company',
      headers: { cookie: admin },
      payload: { requestLocation: true, locationOfService: polygon },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    try {
      const g = await registerGuest(t.app);
      const add = (app: App, guest: RegisteredGuest) =>
        app.inject({
          method: 'POST',
          url: '/api/call-report/add',
          headers: bearer(guest.access_token),
          payload: {
            call_id: `${guest.username}--${crypto.randomBytes(4).toString('hex')}`,
            company: guest.companyId,
            source: 'site',
          },
        });
      const refused = await add(b.app, g);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ message: string }>().message).toMatch(/^location: /);
      const check = await t.app.inject({
        method: 'PUT',
        url: '/api/geo-fence/check',
        headers: bearer(g.access_token),
        payload: { lat: 24.7, lng: 46.7, companyID: g.companyId },
      });
      expect(check.statusCode, check.body).toBe(200);
      const opened = await add(b.app, g);
      expect(opened.statusCode, opened.body).toBe(201);
      // and a failed check on B takes the pass back for A
      expect(
        (
          await b.app.inject({
            method: 'PUT',
            url: '/api/geo-fence/check',
            headers: bearer(g.access_token),
            payload: { lat: 0, lng: 0, companyID: g.companyId },
          })
        ).statusCode,
      ).toBe(403);
      expect((await add(t.app, g)).statusCode).toBe(403);
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/company',
        headers: { cookie: admin },
        payload: { requestLocation: false, locationOfService: null },
      });
    }
  });

  const uploadPng = async (app: App, headers: Record<string, string>) => {
    const body = multipart({ companyId: String(DEMO.companyId), forChat: 'true' }, [
      { field: 'image', filename: 'shot.png', type: 'image/png', content: PNG_BYTES },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: { fileUrl: string } }>().data.fileUrl;
  };

  it('when a file is uploaded through one instance, then the other serves it with the same bytes and headers', async () => {
    const g = await registerGuest(t.app);
    const fileUrl = await uploadPng(t.app, bearer(g.access_token));
    const viaA = await t.app.inject({ method: 'GET', url: fileUrl, headers: bearer(g.access_token) });
    const viaB = await b.app.inject({ method: 'GET', url: fileUrl, headers: bearer(g.access_token) });
    expect(viaB.statusCode, viaB.body).toBe(200);
    expect(viaB.rawPayload.equals(PNG_BYTES)).toBe(true);
    for (const header of ['content-type', 'x-content-type-options', 'content-security-policy', 'cache-control', 'content-disposition']) {
      expect(viaB.headers[header], header).toBe(viaA.headers[header]);
    }
    expect(viaB.headers['content-type']).toBe('image/png');
  });

  it('when a profile image is set through one instance, then the other serves it', async () => {
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const fileUrl = await uploadPng(t.app, { cookie: agent });
    const uploadId = fileUrl.split('/').at(-1)!;
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/console/profile-image',
      headers: { cookie: agent },
      payload: { uploadId },
    });
    expect(set.statusCode, set.body).toBe(200);
    const img = await b.app.inject({ method: 'GET', url: `/api/profile-images/${uploadId}` });
    expect(img.statusCode, img.body).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.rawPayload.equals(PNG_BYTES)).toBe(true);
  });
});
