import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Routes any console user may call for its own records (docs/api.md: appointments). */
const OPEN_TO_AGENTS = new Set(['/api/admin/appointments', '/api/admin/appointments/{id}']);

describe.each(dialects())('authorization of administration and reports (%s)', (dialect) => {
  let t: TestContext;
  let demoAdmin: string;
  let demoAgent: string;
  let demoAssignment: number;
  let demoUserId: number;
  let demoAppointment: number;
  let other: { companyId: number; admin: string; supervisor: string; agent: string };

  /** Every /api/admin, /api/console/reports and /api/console/recordings operation, from the OpenAPI document. */
  async function adminOperations(): Promise<Array<{ method: Method; path: string }>> {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = doc.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    const ops: Array<{ method: Method; path: string }> = [];
    for (const [path, methods] of Object.entries(paths)) {
      if (!path.startsWith('/api/admin/') && !path.startsWith('/api/console/reports') && !path.startsWith('/api/console/recordings')) continue;
      for (const m of Object.keys(methods)) ops.push({ method: m.toUpperCase() as Method, path });
    }
    return ops;
  }

  beforeAll(async () => {
    t = await createTestContext(dialect);
    demoAdmin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    demoAgent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    demoAssignment = await addAssignment(t.db, DEMO.companyId, 'Demo private queue');
    const u = await addUser(t.db, { companyId: DEMO.companyId, password: 'demo-user-password', assignmentIds: [demoAssignment] });
    demoUserId = u.id;
    const appt = await t.app.inject({
      method: 'POST',
      url: '/api/admin/appointments',
      headers: { cookie: demoAdmin },
      payload: { agentId: u.id, startsAt: new Date(t.clock.now + 3600_000).toISOString() },
    });
    demoAppointment = appt.json<{ data: { id: number } }>().data.id;
    const g = await registerGuest(t.app, { companyId: DEMO.companyId });
    await openCall(t.app, g);

    const companyId = await addCompany(t.db, { name: 'Second Co', settings: { welcomeMsg: 'Second' } });
    await addAssignment(t.db, companyId, 'Second queue');
    const [a, s, g2] = await Promise.all([
      addUser(t.db, { companyId, role: 'admin', password: 'second-admin-password' }),
      addUser(t.db, { companyId, role: 'supervisor', password: 'second-super-password' }),
      addUser(t.db, { companyId, role: 'agent', password: 'second-agent-password' }),
    ]);
    other = {
      companyId,
      admin: await login(t.app, a.email, a.password),
      supervisor: await login(t.app, s.email, s.password),
      agent: await login(t.app, g2.email, g2.password),
    };
  });
  afterAll(async () => t.close());

  it('when the API is listed, then it has the administration routes this test sweeps', async () => {
    const ops = (await adminOperations()).map((o) => `${o.method} ${o.path}`);
    for (const expected of [
      'GET /api/admin/company',
      'PUT /api/admin/company',
      'POST /api/admin/assignments',
      'DELETE /api/admin/assignment-groups/{id}',
      'PUT /api/admin/users/{id}',
      'PUT /api/admin/schedule',
      'GET /api/console/reports.csv',
      'GET /api/console/recordings',
      'GET /api/console/recordings/{callId}/file',
      'GET /api/console/recordings/{callId}/tracks',
      'DELETE /api/console/recordings/{callId}',
    ]) {
      expect(ops).toContain(expected);
    }
  });

  it('when an agent calls any administration or report route, then 403 (appointments: its own only)', async () => {
    const reached: string[] = [];
    for (const { method, path } of await adminOperations()) {
      if (OPEN_TO_AGENTS.has(path)) continue;
      const url = path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({ method, url, headers: { cookie: demoAgent }, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      if (res.statusCode !== 403) reached.push(`${method} ${path} → ${res.statusCode}`);
    }
    expect(reached).toEqual([]);
  });

  it('when nobody is logged in, then every administration route answers 401', async () => {
    const reached: string[] = [];
    for (const { method, path } of await adminOperations()) {
      const res = await t.app.inject({ method, url: path.replace(/\{[^}]+\}/g, '1'), ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      if (res.statusCode !== 401) reached.push(`${method} ${path} → ${res.statusCode}`);
    }
    expect(reached).toEqual([]);
  });

  it("when another company's admin lists, then none of the first company's records appear", async () => {
    for (const url of ['/api/admin/assignments', '/api/admin/assignment-groups', '/api/admin/users', '/api/admin/appointments', '/api/admin/company']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: other.admin } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('Demo private queue');
      expect(res.body, url).not.toContain('demo.lobby');
      expect(res.body, url).not.toMatch(/Lobby Demo/);
    }
    const users = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: other.admin } });
    expect(users.json<{ data: { users: Array<{ id: number }> } }>().data.users.map((u) => u.id)).not.toContain(demoUserId);
  });

  it("when another company's admin targets the first company's ids, then 404/400 and nothing changes", async () => {
    const h = { cookie: other.admin };
    const attempts = [
      t.app.inject({ method: 'PUT', url: `/api/admin/assignments/${demoAssignment}`, headers: h, payload: { name: 'Hijacked', type: 'queue' } }),
      t.app.inject({ method: 'DELETE', url: `/api/admin/assignments/${demoAssignment}`, headers: h }),
      t.app.inject({ method: 'PUT', url: `/api/admin/users/${demoUserId}`, headers: h, payload: { password: 'hijacked-password' } }),
      t.app.inject({ method: 'DELETE', url: `/api/admin/users/${demoUserId}`, headers: h }),
      t.app.inject({ method: 'DELETE', url: `/api/admin/appointments/${demoAppointment}`, headers: h }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(404);

    // Foreign ids inside bodies are refused too.
    const withForeignAgent = await t.app.inject({ method: 'POST', url: '/api/admin/assignments', headers: h, payload: { name: 'Mine', type: 'queue', agentIds: [demoUserId] } });
    expect(withForeignAgent.statusCode).toBe(400);
    const groupOfForeign = await t.app.inject({ method: 'POST', url: '/api/admin/assignment-groups', headers: h, payload: { name: 'G', assignmentIds: [demoAssignment] } });
    expect(groupOfForeign.statusCode).toBe(400);
    const userInForeign = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: h,
      payload: { email: 'spy@second.test', name: 'Spy', role: 'agent', password: 'spy-password-long', assignmentIds: [demoAssignment] },
    });
    expect(userInForeign.statusCode).toBe(400);
    const apptForForeign = await t.app.inject({
      method: 'POST',
      url: '/api/admin/appointments',
      headers: { cookie: other.supervisor },
      payload: { agentId: demoUserId, startsAt: new Date(t.clock.now + 60_000).toISOString() },
    });
    expect(apptForForeign.statusCode).toBe(400);

    const mine = await t.app.inject({ method: 'GET', url: '/api/admin/assignments', headers: { cookie: demoAdmin } });
    expect(mine.json<{ data: { assignments: Array<{ id: number; name: string }> } }>().data.assignments).toContainEqual(
      expect.objectContaining({ id: demoAssignment, name: 'Demo private queue', agentIds: [demoUserId] }),
    );
    await login(t.app, (await t.db.kysely.selectFrom('users').select('email').where('id', '=', demoUserId).executeTakeFirstOrThrow()).email, 'demo-user-password');
  });

  it("when another company's supervisor reads reports, then the first company's calls are not counted", async () => {
    const theirs = await t.app.inject({ method: 'GET', url: '/api/console/reports', headers: { cookie: other.supervisor } });
    expect(theirs.json<{ data: { totals: { calls: number } } }>().data.totals.calls).toBe(0);
    const ours = await t.app.inject({ method: 'GET', url: '/api/console/reports', headers: { cookie: demoAdmin } });
    expect(ours.json<{ data: { totals: { calls: number } } }>().data.totals.calls).toBe(1);
    const csv = await t.app.inject({ method: 'GET', url: '/api/console/reports.csv', headers: { cookie: other.agent } });
    expect(csv.statusCode).toBe(403);
  });
});
