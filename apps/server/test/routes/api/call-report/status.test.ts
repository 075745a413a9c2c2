import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, login, otherCompanyGuest, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/call-report/add statuses: blocked and outOfQuota (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    // A Wednesday noon, UTC.
    t.clock.now = Date.UTC(2026, 0, 14, 12);
  });
  afterAll(async () => t.close());

  let seq = 0;
  const add = async (g: RegisteredGuest) => {
    seq += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--s${seq}`, company: g.companyId, source: 'site' },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ data: { status: string } }>().data.status;
  };

  it('when the company blocks a guest, then its calls answer blocked, other guests and other companies are unaffected, and unblocking restores it', async () => {
    const bad = await registerGuest(t.app);
    const good = await registerGuest(t.app);
    const foreign = await otherCompanyGuest(t.app, t.db);
    const block = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: bad.username, reason: 'abuse' } });
    expect(block.statusCode).toBe(201);

    expect(await add(bad)).toBe('blocked');
    expect(await add(good)).toBe('ok');
    expect(await add(foreign)).toBe('ok');

    const id = block.json<{ data: { id: number } }>().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/blocked-guests/${id}`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect(await add(bad)).toBe('ok');
  });

  it('when the daily quota is reached, then further calls that day answer outOfQuota, the next day they are ok again, and other companies are unaffected', async () => {
    // A fresh day (Thursday), so the previous test's calls do not count.
    t.clock.now = Date.UTC(2026, 0, 15, 0, 30);
    const day = await t.app.inject({ method: 'POST', url: '/api/admin/quotas', headers: { cookie: admin }, payload: { period: 'day', limit: 2 } });
    expect(day.statusCode).toBe(201);
    expect(day.json<{ data: { used: number } }>().data.used).toBe(0);
    const g = await registerGuest(t.app);
    const foreign = await otherCompanyGuest(t.app, t.db, 'Quota-free Co');
    expect([await add(g), await add(g), await add(g)]).toEqual(['ok', 'ok', 'outOfQuota']);
    expect(await add(foreign)).toBe('ok');

    // Tokens live 2 hours: the next day's guest registers again.
    t.clock.now += 24 * 3600 * 1000;
    expect(await add(await registerGuest(t.app))).toBe('ok');
    await t.app.inject({ method: 'DELETE', url: `/api/admin/quotas/${day.json<{ data: { id: number } }>().data.id}`, headers: { cookie: admin } });
  });

  it('when a monthly quota is 0, then every call is outOfQuota and refused calls do not count', async () => {
    const month = await t.app.inject({ method: 'POST', url: '/api/admin/quotas', headers: { cookie: admin }, payload: { period: 'month', limit: 0 } });
    const g = await registerGuest(t.app);
    expect(await add(g)).toBe('outOfQuota');
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/quotas', headers: { cookie: admin } });
    const before = list.json<{ data: { quotas: Array<{ used: number }> } }>().data.quotas[0]?.used;
    expect(await add(g)).toBe('outOfQuota');
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/quotas', headers: { cookie: admin } })).json<{ data: { quotas: Array<{ used: number }> } }>().data.quotas[0]?.used;
    expect(after).toBe(before);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/quotas/${month.json<{ data: { id: number } }>().data.id}`, headers: { cookie: admin } });
  });
});
