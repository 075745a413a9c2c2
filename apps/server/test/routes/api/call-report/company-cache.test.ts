import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

/**
 * Opening a call reads the company from a snapshot kept for LOBBY_COMPANY_CACHE_MS (here an hour, so that
 * only invalidation can explain a fresh read): an admin's change through the API applies to the very next
 * call; a write behind the server's back (lobby-admin, another instance) only once the snapshot expires.
 */
describe.each(dialects())('call-report/add with the company snapshot cache (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { companyCacheMs: 3_600_000 }, deps: { mediaRooms: createFakeMediaRooms() } });
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  const add = async (guest?: RegisteredGuest) => {
    const g = guest ?? (await registerGuest(t.app));
    return t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--${crypto.randomBytes(4).toString('hex')}`, company: g.companyId, source: 'site' },
    });
  };
  const adminApi = async (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const res = await t.app.inject({ method, url, headers: { cookie: admin }, ...(payload === undefined ? {} : { payload }) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };

  it('when the admin closes the company through the API, then the next call is refused at once, and reopening lets the next one in', async () => {
    expect((await add()).statusCode).toBe(201); // the snapshot is loaded
    const today = new Date(t.clock.now).toISOString().slice(0, 10);
    const allWeek = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, from: '00:00', to: '23:59' }));
    await adminApi('PUT', '/api/admin/company', { schedule: { timezone: 'UTC', weekly: allWeek, closedDays: [today] } });
    const closed = await add();
    expect(closed.statusCode, closed.body).toBe(403);
    expect(closed.json<{ message: string }>().message).toMatch(/^schedule: /);
    await adminApi('PUT', '/api/admin/company', { schedule: null });
    expect((await add()).statusCode).toBe(201);
  });

  it('when an admin adds a daily quota already used up through the API, then the next call is outOfQuota', async () => {
    expect((await add()).statusCode).toBe(201); // at least one accepted call today
    const quota = await adminApi('POST', '/api/admin/quotas', { period: 'day', limit: 1 });
    const res = await add();
    expect(res.json<{ data: { status: string } }>().data.status).toBe('outOfQuota');
    await adminApi('DELETE', `/api/admin/quotas/${quota.json<{ data: { id: number } }>().data.id}`);
    expect((await add()).json<{ data: { status: string } }>().data.status).toBe('ok');
  });

  it('when the admin blocks a guest through the API, then that guest\'s very next call answers blocked, and after unblocking the next one is ok', async () => {
    const bad = await registerGuest(t.app);
    const status = async () => (await add(bad)).json<{ data: { status: string } }>().data.status;
    expect(await status()).toBe('ok'); // the snapshot, with its blocked guests, is loaded
    const block = await adminApi('POST', '/api/admin/blocked-guests', { guestUsername: bad.username, reason: 'abuse' });
    expect(await status()).toBe('blocked');
    expect(await status()).toBe('blocked');
    await adminApi('DELETE', `/api/admin/blocked-guests/${block.json<{ data: { id: number } }>().data.id}`);
    expect(await status()).toBe('ok');
  });

  it('when a guest is blocked behind the server (another instance), then its calls go on until the snapshot expires, then answer blocked', async () => {
    const bad = await registerGuest(t.app);
    const status = async () => (await add(bad)).json<{ data: { status: string } }>().data.status;
    expect(await status()).toBe('ok');
    await t.db.kysely.insertInto('blocked_guests').values({ company_id: DEMO.companyId, guest_username: bad.username, reason: 'abuse', created_at: t.clock.now }).execute();
    expect(await status()).toBe('ok'); // still the cached snapshot: the documented delay
    t.app.services.companySnapshots.invalidate(DEMO.companyId); // what the expiry does
    expect(await status()).toBe('blocked');
  });

  it("when an admin adds an agent to an assignment through the API, then the very next guest's room of it has that agent among its admins", async () => {
    await registerGuest(t.app); // the snapshot, with the assignments' agents, is loaded
    const sales = await t.db.kysely.selectFrom('assignments').select('id').where('company_id', '=', DEMO.companyId).where('name', '=', 'Sales').executeTakeFirstOrThrow();
    const late = await addUser(t.db, { companyId: DEMO.companyId, password: 'late-agent-pw' });
    const current = await t.db.kysely.selectFrom('user_assignments').select('user_id').where('assignment_id', '=', sales.id).execute();
    const xmpp = await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', late.id).executeTakeFirstOrThrow();
    const jid = `${xmpp.xmpp_username}@${t.config.xmppDomain}`;
    const adminsOfNext = async () => {
      const g = await registerGuest(t.app);
      const room = t.ejabberd.rooms.get(g.guestRooms.find((r) => r.assignmentId === sales.id)?.room.split('@')[0] ?? '');
      return room?.admins;
    };
    expect(await adminsOfNext()).not.toContain(jid);
    await adminApi('PUT', `/api/admin/assignments/${sales.id}`, { name: 'Sales', type: 'queue', agentIds: [...current.map((c) => c.user_id), late.id] });
    expect(await adminsOfNext()).toContain(jid);
    await adminApi('PUT', `/api/admin/assignments/${sales.id}`, { name: 'Sales', type: 'queue', agentIds: current.map((c) => c.user_id) });
    expect(await adminsOfNext()).not.toContain(jid);
  });

  it('when the company is deactivated behind the server (as lobby-admin does), then guests register until the snapshot expires, then get 409', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: crypto.randomBytes(16).toString('hex') } })).statusCode).toBe(201);
    await t.db.kysely.updateTable('companies').set({ activated: 0 }).where('id', '=', DEMO.companyId).execute();
    const register = () => t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: crypto.randomBytes(16).toString('hex') } });
    expect((await register()).statusCode).toBe(201); // still the cached snapshot: the documented delay
    t.app.services.companySnapshots.invalidate(DEMO.companyId); // what the expiry does
    expect((await register()).statusCode).toBe(409);
    await t.db.kysely.updateTable('companies').set({ activated: 1 }).where('id', '=', DEMO.companyId).execute();
    t.app.services.companySnapshots.invalidate(DEMO.companyId);
  });

  it("when an agent answers a call (its media grant, a console write of the call's report), then the company's snapshot stays", async () => {
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const bad = await registerGuest(t.app);
    const status = async () => (await add(bad)).json<{ data: { status: string } }>().data.status;
    expect(await status()).toBe('ok');
    await t.db.kysely.insertInto('blocked_guests').values({ company_id: DEMO.companyId, guest_username: bad.username, reason: 'abuse', created_at: t.clock.now }).execute();
    const call = await openCall(t.app, await registerGuest(t.app));
    const grant = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media`, headers: { cookie: agent } });
    expect(grant.statusCode, grant.body).toBe(200);
    expect(await status()).toBe('ok'); // still the snapshot loaded before the grant
    t.app.services.companySnapshots.invalidate(DEMO.companyId);
    expect(await status()).toBe('blocked');
    await t.db.kysely.deleteFrom('blocked_guests').where('guest_username', '=', bad.username).execute();
    t.app.services.companySnapshots.invalidate(DEMO.companyId);
  });

  it('when the company is deactivated behind the server (as lobby-admin does), then calls go on until the snapshot expires', async () => {
    const [first, second, third] = [await registerGuest(t.app), await registerGuest(t.app), await registerGuest(t.app)];
    expect((await add(first)).statusCode).toBe(201);
    await t.db.kysely.updateTable('companies').set({ activated: 0 }).where('id', '=', DEMO.companyId).execute();
    expect((await add(second)).statusCode).toBe(201); // still the cached snapshot: the documented delay
    t.app.services.companySnapshots.invalidate(DEMO.companyId); // what the expiry does
    const res = await add(third);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('company: not activated');
    await t.db.kysely.updateTable('companies').set({ activated: 1 }).where('id', '=', DEMO.companyId).execute();
  });
});
