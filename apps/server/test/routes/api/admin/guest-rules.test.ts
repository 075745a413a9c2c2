import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { RATING_FORM, WELCOME_FORM, addUser, login, otherCompanyGuest, registerGuest } from '../../../helpers/fixtures.ts';

/**
 * The admin CRUD of the data the guest calls check. For each resource: create, list, replace, delete as the
 * company's admin; an agent gets 403; another company's admin neither sees nor changes it (404 by id).
 */
interface Resource {
  path: string;
  listKey: string;
  create: () => Promise<Record<string, unknown>>;
  replace: Record<string, unknown>;
  changed: (item: Record<string, unknown>) => boolean;
}

describe.each(dialects())('admin CRUD of forms, geofence zones, quotas, blocked guests (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let otherAdmin: string;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const foreign = await otherCompanyGuest(t.app, t.db);
    const u = await addUser(t.db, { companyId: foreign.companyId, password: 'other-admin-pw', role: 'admin' });
    otherAdmin = await login(t.app, u.email, u.password);
  });
  afterAll(async () => t.close());

  const resources: Resource[] = [
    {
      path: '/api/admin/forms',
      listKey: 'forms',
      create: () => Promise.resolve(WELCOME_FORM),
      replace: { ...WELCOME_FORM, title: 'Renamed' },
      changed: (i) => i.title === 'Renamed',
    },
    {
      path: '/api/admin/geofence-zones',
      listKey: 'zones',
      create: () => Promise.resolve({ name: 'Centre', kind: 'circle', center: { lat: 24.7, lng: 46.7 }, radiusMeters: 500 }),
      replace: { name: 'Square', kind: 'polygon', coordinates: [[0, 0], [1, 0], [1, 1], [0, 1]] },
      changed: (i) => i.kind === 'polygon',
    },
    {
      path: '/api/admin/quotas',
      listKey: 'quotas',
      create: () => Promise.resolve({ period: 'week', limit: 100 }),
      replace: { period: 'week', limit: 7 },
      changed: (i) => i.limit === 7,
    },
    {
      path: '/api/admin/blocked-guests',
      listKey: 'blockedGuests',
      create: async () => ({ guestUsername: (await registerGuest(t.app)).username, reason: 'spam' }),
      replace: { reason: 'abuse' },
      changed: (i) => i.reason === 'abuse',
    },
  ];

  for (const r of resources) {
    it(`when the admin manages ${r.path}, then create, list, replace and delete work`, async () => {
      const created = await t.app.inject({ method: 'POST', url: r.path, headers: { cookie: admin }, payload: await r.create() });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ data: { id: number } }>().data.id;
      const list = await t.app.inject({ method: 'GET', url: r.path, headers: { cookie: admin } });
      expect(list.json<{ data: Record<string, Array<{ id: number }>> }>().data[r.listKey]?.map((x) => x.id)).toContain(id);
      const put = await t.app.inject({ method: 'PUT', url: `${r.path}/${id}`, headers: { cookie: admin }, payload: r.replace });
      expect(put.statusCode, put.body).toBe(200);
      expect(r.changed(put.json<{ data: Record<string, unknown> }>().data)).toBe(true);
      const del = await t.app.inject({ method: 'DELETE', url: `${r.path}/${id}`, headers: { cookie: admin } });
      expect(del.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'DELETE', url: `${r.path}/${id}`, headers: { cookie: admin } })).statusCode).toBe(404);
    });

    it(`when an agent calls ${r.path}, then 403 for every method, even with a malformed body`, async () => {
      for (const [method, url] of [['GET', r.path], ['POST', r.path], ['PUT', `${r.path}/1`], ['DELETE', `${r.path}/1`]] as const) {
        const res = await t.app.inject({ method, url, headers: { cookie: agent }, payload: method === 'POST' || method === 'PUT' ? { junk: true } : undefined });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    });

    it(`when another company's admin targets ${r.path} items, then it does not see them and gets 404 changing them`, async () => {
      const created = await t.app.inject({ method: 'POST', url: r.path, headers: { cookie: admin }, payload: await r.create() });
      const id = created.json<{ data: { id: number } }>().data.id;
      const list = await t.app.inject({ method: 'GET', url: r.path, headers: { cookie: otherAdmin } });
      expect(list.json<{ data: Record<string, Array<{ id: number }>> }>().data[r.listKey]?.map((x) => x.id)).not.toContain(id);
      expect((await t.app.inject({ method: 'PUT', url: `${r.path}/${id}`, headers: { cookie: otherAdmin }, payload: r.replace })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `${r.path}/${id}`, headers: { cookie: otherAdmin } })).statusCode).toBe(404);
      const mine = await t.app.inject({ method: 'GET', url: r.path, headers: { cookie: admin } });
      const item = mine.json<{ data: Record<string, Array<Record<string, unknown>>> }>().data[r.listKey]?.find((x) => x.id === id);
      expect(item).toBeDefined();
      expect(r.changed(item ?? {})).toBe(false);
      await t.app.inject({ method: 'DELETE', url: `${r.path}/${id}`, headers: { cookie: admin } });
    });
  }

  it('when a form repeats a key, a select has no options, or a second form of a kind is created, then 400/409 names the field', async () => {
    const dup = await t.app.inject({ method: 'POST', url: '/api/admin/forms', headers: { cookie: admin }, payload: { ...RATING_FORM, fields: [RATING_FORM.fields[0], RATING_FORM.fields[0]] } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json<{ message: string }>().message).toContain('fields/1/key');
    const noOptions = await t.app.inject({
      method: 'POST',
      url: '/api/admin/forms',
      headers: { cookie: admin },
      payload: { ...RATING_FORM, fields: [{ key: 'x', type: 'select', label: 'X', required: true, order: 0 }] },
    });
    expect(noOptions.statusCode).toBe(400);
    expect(noOptions.json<{ message: string }>().message).toContain('fields/0/options');
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/forms', headers: { cookie: admin }, payload: RATING_FORM })).statusCode).toBe(201);
    const second = await t.app.inject({ method: 'POST', url: '/api/admin/forms', headers: { cookie: admin }, payload: RATING_FORM });
    expect(second.statusCode).toBe(409);
    expect(second.json<{ message: string }>().message).toContain('kind');
  });

  it("when an admin blocks a guest of another company, then 404 names guestUsername", async () => {
    const foreign = await otherCompanyGuest(t.app, t.db, 'Far Co');
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: foreign.username, reason: 'x' } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('guestUsername');
  });

  it('when a zone is malformed, then 400 (polygon of 2 points, negative radius, latitude 100)', async () => {
    for (const zone of [
      { name: 'a', kind: 'polygon', coordinates: [[0, 0], [1, 1]] },
      { name: 'b', kind: 'circle', center: { lat: 0, lng: 0 }, radiusMeters: -5 },
      { name: 'c', kind: 'circle', center: { lat: 100, lng: 0 }, radiusMeters: 5 },
    ]) {
      expect((await t.app.inject({ method: 'POST', url: '/api/admin/geofence-zones', headers: { cookie: admin }, payload: zone })).statusCode).toBe(400);
    }
  });
});
