import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { WELCOME_FORM, bearer, createForm, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

/**
 * The company's rules for a call are the server's, not only the browser's. A guest that
 * skips a step of the guest app (a modified browser, curl) gets no accepted call: activated, opening hours,
 * geofence, welcome form on call-report/add; activated, blocked and acceptance on hold-call; agents are offered only
 * accepted calls.
 */
describe.each(dialects())('the rules of a call, on the server (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  const settings = async (patch: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: patch });
    expect(res.statusCode, res.body).toBe(200);
  };
  beforeEach(async () => {
    await settings({ schedule: null, requestLocation: false, locationOfService: null, welcomeForm: false });
    await t.db.kysely.updateTable('companies').set({ activated: 1 }).where('id', '=', DEMO.companyId).execute();
  });

  const add = (g: RegisteredGuest) =>
    t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--${crypto.randomBytes(4).toString('hex')}`, company: g.companyId, source: 'site' },
    });
  const reportsOf = async (g: RegisteredGuest) => t.db.kysely.selectFrom('call_reports').selectAll().where('guest_username', '=', g.username).execute();
  const refused = async (g: RegisteredGuest, message: RegExp) => {
    const res = await add(g);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await reportsOf(g)).toEqual([]);
  };
  const geofence = (g: RegisteredGuest, lat: number, lng: number) =>
    t.app.inject({ method: 'PUT', url: '/api/geo-fence/check', headers: bearer(g.access_token), payload: { lat, lng, companyID: g.companyId } });

  it('when the company is not activated, then call-report/add is 403 naming company and nothing is stored', async () => {
    const g = await registerGuest(t.app);
    await t.db.kysely.updateTable('companies').set({ activated: 0 }).where('id', '=', DEMO.companyId).execute();
    await refused(g, /^company: not activated$/);
  });

  it('when the company is closed now (weekly hours or a closed day), then call-report/add is 403 naming schedule', async () => {
    const g = await registerGuest(t.app);
    const today = new Date(t.clock.now);
    const otherDay = (today.getUTCDay() + 3) % 7;
    await settings({ schedule: { timezone: 'UTC', weekly: [{ day: otherDay, from: '09:00', to: '10:00' }] } });
    await refused(g, /^schedule: /);
    const allDay = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, from: '00:00', to: '23:59' }));
    await settings({ schedule: { timezone: 'UTC', weekly: allDay, closedDays: [today.toISOString().slice(0, 10)] } });
    await refused(g, /^schedule: /);
    await settings({ schedule: { timezone: 'UTC', weekly: allDay, closedDays: [] } });
    if (today.getUTCHours() * 60 + today.getUTCMinutes() < 23 * 60 + 59) expect((await add(g)).statusCode).toBe(201);
  });

  it('when the company requests location, then only a guest whose own recent geofence check passed opens a call', async () => {
    await settings({ requestLocation: true, locationOfService: { type: 'Polygon', coordinates: [[[46.6, 24.6], [46.8, 24.6], [46.8, 24.8], [46.6, 24.8], [46.6, 24.6]]] } });
    const g = await registerGuest(t.app);
    const other = await registerGuest(t.app);
    await refused(g, /^location: /);
    expect((await geofence(g, 0, 0)).statusCode).toBe(403);
    await refused(g, /^location: /);
    // another guest's pass is not this guest's
    expect((await geofence(other, 24.7, 46.7)).statusCode).toBe(200);
    await refused(g, /^location: /);
    expect((await geofence(g, 24.7, 46.7)).statusCode).toBe(200);
    expect((await add(g)).statusCode).toBe(201);
    // a pass gets old
    t.clock.now += 31 * 60 * 1000;
    const late = await add(g);
    expect(late.statusCode).toBe(403);
    expect(late.json<{ message: string }>().message).toMatch(/^location: /);
  });

  it('when the company requires its welcome form, then call-report/add is 403 naming welcomeForm until the guest submitted it', async () => {
    const formId = await createForm(t.app, admin, WELCOME_FORM);
    await settings({ welcomeForm: true });
    const g = await registerGuest(t.app);
    await refused(g, /^welcomeForm: /);
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/form-submission',
      headers: bearer(g.access_token),
      payload: { company: g.companyId, guestUsername: g.username, serviceType: 'talk', formId, answers: { name: 'Sam', topic: 'sales' } },
    });
    expect(submit.statusCode, submit.body).toBe(201);
    expect((await add(g)).statusCode).toBe(201);
  });

  it('when a guest is blocked, then its hold-call is 403 and creates no report, and its blocked call cannot be continued', async () => {
    const g = await registerGuest(t.app);
    const accepted = await openCall(t.app, g);
    const block = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: g.username, reason: 'abuse' } });
    expect(block.statusCode).toBe(201);
    const hold = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/call-report/hold-call',
        headers: bearer(g.access_token),
        payload: { origin_call_id: current, current_call_id: current, new_call_id: `${g.username}--${crypto.randomBytes(4).toString('hex')}` },
      });
    const res = await hold(accepted.callId);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('guest_username: blocked by the company');

    const blocked = await openCall(t.app, g); // 201 with status blocked
    const res2 = await hold(blocked.callId);
    expect(res2.statusCode).toBe(403);
    expect(res2.json<{ message: string }>().message).toMatch(/^current_call_id: the call was not accepted/);
    expect((await reportsOf(g)).map((r) => r.status).sort()).toEqual(['blocked', 'ok']);
  });

  it('when the company was deactivated during a call, then its hold-call is 403 naming company and creates no report; once reactivated the call resumes', async () => {
    const g = await registerGuest(t.app);
    const accepted = await openCall(t.app, g);
    const newCallId = `${g.username}--${crypto.randomBytes(4).toString('hex')}`;
    const hold = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/call-report/hold-call',
        headers: bearer(g.access_token),
        payload: { origin_call_id: accepted.callId, current_call_id: accepted.callId, new_call_id: newCallId },
      });
    await t.db.kysely.updateTable('companies').set({ activated: 0 }).where('id', '=', DEMO.companyId).execute();
    const res = await hold();
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('company: not activated');
    expect((await reportsOf(g)).map((r) => r.call_id)).toEqual([accepted.callId]);

    await t.db.kysely.updateTable('companies').set({ activated: 1 }).where('id', '=', DEMO.companyId).execute();
    const resumed = await hold();
    expect(resumed.statusCode, resumed.body).toBe(201);
    expect((await reportsOf(g)).map((r) => r.call_id).sort()).toEqual([accepted.callId, newCallId].sort());
  });

  it('when calls were blocked or out of quota, then GET /api/console/rooms does not offer them to agents', async () => {
    const blockedGuest = await registerGuest(t.app);
    await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: blockedGuest.username, reason: 'abuse' } });
    const blocked = await openCall(t.app, blockedGuest);
    const quota = await t.app.inject({ method: 'POST', url: '/api/admin/quotas', headers: { cookie: admin }, payload: { period: 'day', limit: 0 } });
    expect(quota.statusCode).toBe(201);
    const outOfQuota = await openCall(t.app, await registerGuest(t.app));
    const statuses = await t.db.kysely.selectFrom('call_reports').select(['call_id', 'status']).where('call_id', 'in', [blocked.callId, outOfQuota.callId]).execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['blocked', 'outOfQuota']);

    const res = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: agent } });
    const offered = res.json<{ data: { rooms: Array<{ callId: string }> } }>().data.rooms.map((r) => r.callId);
    expect(offered).not.toContain(blocked.callId);
    expect(offered).not.toContain(outOfQuota.callId);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/quotas/${quota.json<{ data: { id: number } }>().data.id}`, headers: { cookie: admin } });
  });
});
