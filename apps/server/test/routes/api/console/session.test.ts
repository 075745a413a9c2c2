import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, login, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('console session: login, me, xmpp-token, logout (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when the demo agent logs in, then it gets its user and an httpOnly SameSite=Strict session cookie stored hashed', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: DEMO.agentEmail, password: DEMO.agentPassword } });

    expect(res.statusCode).toBe(200);
    const { user } = res.json<{ data: { user: Record<string, unknown> } }>().data;
    expect(user).toMatchObject({ email: DEMO.agentEmail, role: 'agent', companyId: 18, jid: 'agent-18@lobby.local', name: 'Demo Agent' });
    expect(user.assignmentIds).toHaveLength(2);
    expect(user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'lobby_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 12 * 3600 });
    const stored = await t.db.kysely.selectFrom('console_sessions').select('id').execute();
    expect(stored.map((s) => s.id)).not.toContain(cookie?.value);
  });

  it('when the password or email is wrong, then 401 without saying which', async () => {
    const wrongPw = await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: DEMO.agentEmail, password: 'nope' } });
    const noUser = await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: 'ghost@demo.lobby', password: 'nope' } });
    expect(wrongPw.statusCode).toBe(401);
    expect(noUser.statusCode).toBe(401);
    expect(wrongPw.json<{ message: string }>().message).toBe(noUser.json<{ message: string }>().message);
    expect(wrongPw.cookies).toHaveLength(0);
  });

  it('when the login body lacks the password, then 400 names password', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: DEMO.agentEmail } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('password');
  });

  it('when logged in, then me and xmpp-token answer; after logout both answer 401', async () => {
    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);

    const me = await t.app.inject({ method: 'GET', url: '/api/console/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ data: { user: { role: string } } }>().data.user.role).toBe('admin');

    const tok = await t.app.inject({ method: 'POST', url: '/api/console/xmpp-token', headers: { cookie } });
    expect(tok.statusCode).toBe(200);
    const { data } = tok.json<{ data: { jid: string; credential: string; expires_in: number } }>();
    expect(data.jid).toBe('admin-18@lobby.local');
    expect(JSON.parse(Buffer.from(data.credential.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({ jid: 'admin-18@lobby.local' });
    expect(data.expires_in).toBe(3600);

    const out = await t.app.inject({ method: 'POST', url: '/api/console/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'lobby_session')?.value).toBe('');

    expect((await t.app.inject({ method: 'GET', url: '/api/console/me', headers: { cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/console/xmpp-token', headers: { cookie } })).statusCode).toBe(401);
  });

  it('when there is no cookie, a forged one or a guest bearer token, then every console route answers 401', async () => {
    const g = await registerGuest(t.app);
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/console/me'],
      ['POST', '/api/console/xmpp-token'],
      ['POST', '/api/console/logout'],
      ['GET', '/api/console/rooms'],
      ['GET', '/api/console/events'],
    ];
    for (const [method, url] of routes) {
      for (const headers of [{}, { cookie: 'lobby_session=forged' }, bearer(g.access_token)]) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
  });

  it('when the session is older than 12 hours, then it is refused', async () => {
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    t.clock.now += 12 * 3600 * 1000 + 1;
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/console/me', headers: { cookie } })).statusCode).toBe(401);
    } finally {
      t.clock.now -= 12 * 3600 * 1000 + 1;
    }
  });
});

describe.each(dialects())('GET /api/console/session: the console\'s check on load (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const status = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/console/session', headers });

  it('when there is no cookie, then 200 signedIn false and no cookie is set', async () => {
    const res = await status({});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { signedIn: false } });
    expect(res.cookies).toHaveLength(0);
  });

  it('when the cookie is a live session, then 200 signedIn true with the same user as /me', async () => {
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await status({ cookie });
    const me = await t.app.inject({ method: 'GET', url: '/api/console/me', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { signedIn: true, user: me.json<{ data: { user: unknown } }>().data.user } });
  });

  it('when the session expired or the cookie is forged, then 200 signedIn false and the cookie is cleared', async () => {
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    t.clock.now += 12 * 3600 * 1000 + 1;
    try {
      for (const headers of [{ cookie }, { cookie: 'lobby_session=forged' }]) {
        const res = await status(headers);
        expect(res.statusCode, headers.cookie).toBe(200);
        expect(res.json(), headers.cookie).toEqual({ data: { signedIn: false } });
        expect(res.cookies.find((c) => c.name === 'lobby_session')?.value, headers.cookie).toBe('');
      }
    } finally {
      t.clock.now -= 12 * 3600 * 1000 + 1;
    }
  });
});

describe('POST /api/console/login rate limit', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', { config: { loginRateLimit: 2 } });
  });
  afterAll(async () => t.close());

  it('when one IP keeps guessing, then it gets 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email: DEMO.agentEmail, password: `guess${i}` } })).statusCode);
    }
    expect(codes).toEqual([401, 401, 429]);
  });
});
