import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addCompany, addUser, login } from '../../../helpers/fixtures.ts';

interface Details {
  id: number;
  name: string;
  welcomeMsg: string;
  welcomeMsg_ar: string;
  backgroundColor: string;
  roundRobin: boolean;
  recordCalls: boolean;
  schedule: unknown;
}

describe.each(dialects())('GET/PUT /api/admin/company (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let otherCompanyId: number;
  let otherAdmin: string;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    otherCompanyId = await addCompany(t.db, { name: 'Other Co', settings: { welcomeMsg: 'Other welcome', backgroundColor: '#112233' } });
    const u = await addUser(t.db, { companyId: otherCompanyId, role: 'admin', password: 'other-admin-password' });
    otherAdmin = await login(t.app, u.email, u.password);
  });
  afterAll(async () => t.close());

  it('when an admin reads the company, then every setting of its own company answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Details }>();
    expect(data).toMatchObject({ id: DEMO.companyId, name: 'Lobby Demo', roundRobin: true, backgroundColor: '#707070' });
  });

  it('when an admin puts a partial object, then only those fields change and the guest-facing details show them', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/company',
      headers: { cookie: admin },
      payload: {
        welcomeMsg: 'Hello from the admin',
        welcomeMsg_ar: 'مرحبا',
        backgroundColor: '#123456',
        schedule: { timezone: 'Asia/Riyadh', weekly: [{ day: 0, from: '09:00', to: '17:00' }] },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Details }>().data).toMatchObject({ welcomeMsg: 'Hello from the admin', backgroundColor: '#123456', roundRobin: true });

    const pub = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${DEMO.companyId}` });
    const details = pub.json<{ data: Details }>().data;
    expect(details).toMatchObject({ welcomeMsg: 'Hello from the admin', welcomeMsg_ar: 'مرحبا', backgroundColor: '#123456', recordCalls: true });
    expect(details.schedule).toEqual({ timezone: 'Asia/Riyadh', weekly: [{ day: 0, from: '09:00', to: '17:00' }] });
  });

  it('when a field is invalid, then 400 names it and nothing is stored', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/company',
      headers: { cookie: admin },
      payload: { welcomeMsg: 'not stored', callType: 'hologram' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('callType');

    const unknown = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { secretKey: 1 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('secretKey');

    const after = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(after.json<{ data: Details }>().data.welcomeMsg).not.toBe('not stored');
  });

  it('when the schedule names an unknown time zone or an empty period, then 400 names the field and the company stays as it was', async () => {
    const put = (schedule: unknown) => t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { welcomeMsg: 'not stored either', schedule } });
    const zone = await put({ timezone: 'Mars/Olympus_Mons', weekly: [{ day: 1, from: '09:00', to: '17:00' }] });
    expect(zone.statusCode).toBe(400);
    expect(zone.json<{ message: string }>().message).toBe('schedule/timezone: unknown time zone Mars/Olympus_Mons');
    const period = await put({ timezone: 'UTC', weekly: [{ day: 1, from: '17:00', to: '09:00' }] });
    expect(period.statusCode).toBe(400);
    expect(period.json<{ message: string }>().message).toMatch(/^schedule\/weekly\/0: /);
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    const { data } = after.json<{ data: Details }>();
    expect(data.welcomeMsg).not.toBe('not stored either');
    expect(JSON.stringify(data.schedule)).not.toContain('Mars');
  });

  it('when an agent calls either route, then 403 and nothing changes', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: agent } });
    expect(get.statusCode).toBe(403);
    const put = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: agent }, payload: { welcomeMsg: 'agent was here' } });
    expect(put.statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'PUT', url: '/api/admin/company', payload: { welcomeMsg: 'anon was here' } });
    expect(anon.statusCode).toBe(401);
    const pub = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${DEMO.companyId}` });
    expect(pub.json<{ data: Details }>().data.welcomeMsg).not.toMatch(/was here/);
  });

  it("when another company's admin changes its settings, then only that company changes and neither sees the other", async () => {
    const put = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: otherAdmin }, payload: { welcomeMsg: 'Other changed' } });
    expect(put.statusCode).toBe(200);
    expect(put.json<{ data: Details }>().data).toMatchObject({ id: otherCompanyId, welcomeMsg: 'Other changed', backgroundColor: '#112233' });

    const mine = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(mine.json<{ data: Details }>().data).toMatchObject({ id: DEMO.companyId, welcomeMsg: 'Hello from the admin' });
    // A company id in the query or body is not a way in.
    const viaQuery = await t.app.inject({ method: 'GET', url: `/api/admin/company?companyId=${DEMO.companyId}`, headers: { cookie: otherAdmin } });
    expect(viaQuery.json<{ data: Details }>().data.id).toBe(otherCompanyId);
    const viaBody = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: otherAdmin }, payload: { id: DEMO.companyId, welcomeMsg: 'x' } });
    expect(viaBody.statusCode).toBe(400);
  });
});
