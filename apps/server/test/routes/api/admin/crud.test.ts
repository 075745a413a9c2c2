import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addUser, login } from '../../../helpers/fixtures.ts';

interface AdminUser {
  id: number;
  email: string;
  name: string;
  role: string;
  assignmentIds: number[];
}

describe.each(dialects())('admin assignments, groups, users, schedule, appointments (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentId: number;

  const api = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const me = await api(agent, 'GET', '/api/console/me');
    agentId = me.json<{ data: { user: { id: number } } }>().data.user.id;
  });
  afterAll(async () => t.close());

  it('when an id is beyond the database\u2019s integers, then 400 naming id (PostgreSQL would fail, found by the fuzz test)', async () => {
    for (const url of ['/api/admin/users/99999999999999999999', '/api/admin/assignments/2147483648', '/api/admin/blocked-guests/99999999999999999999']) {
      const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message, url).toContain('id');
    }
  });

  it('when an admin creates, renames and deletes an assignment with agents, then the list and the guest details follow', async () => {
    const created = await api(admin, 'POST', '/api/admin/assignments', { name: 'Billing', type: 'queue', agentIds: [agentId] });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ data: { id: number } }>().data.id;

    const list = await api(admin, 'GET', '/api/admin/assignments');
    expect(list.json<{ data: { assignments: unknown[] } }>().data.assignments).toContainEqual({ id, name: 'Billing', type: 'queue', position: 0, agentIds: [agentId] });
    // The agent now serves it: /console/me lists it.
    const me = await api(agent, 'GET', '/api/console/me');
    expect(me.json<{ data: { user: { assignmentIds: number[] } } }>().data.user.assignmentIds).toContain(id);

    const renamed = await api(admin, 'PUT', `/api/admin/assignments/${id}`, { name: 'Billing & refunds', type: 'appointment', agentIds: [] });
    expect(renamed.statusCode).toBe(200);
    const pub = await t.app.inject({ method: 'GET', url: `/api/admin/company`, headers: { cookie: admin } });
    expect(pub.json<{ data: { assignments: unknown[] } }>().data.assignments).toContainEqual({ id, name: 'Billing & refunds', type: 'appointment' });

    expect((await api(admin, 'DELETE', `/api/admin/assignments/${id}`)).statusCode).toBe(200);
    expect((await api(admin, 'DELETE', `/api/admin/assignments/${id}`)).statusCode).toBe(404);
  });

  it('when an assignment names an unknown agent or a bad type, then 400 names the field', async () => {
    const badAgent = await api(admin, 'POST', '/api/admin/assignments', { name: 'X', type: 'queue', agentIds: [999999] });
    expect(badAgent.statusCode).toBe(400);
    expect(badAgent.json<{ message: string }>().message).toContain('agentIds');
    const badType = await api(admin, 'POST', '/api/admin/assignments', { name: 'X', type: 'vip' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json<{ message: string }>().message).toContain('type');
  });

  it('when an admin groups assignments, then the group lists them and the company details show the group', async () => {
    const a = await api(admin, 'GET', '/api/admin/assignments');
    const ids = a.json<{ data: { assignments: Array<{ id: number }> } }>().data.assignments.map((x) => x.id);
    const g = await api(admin, 'POST', '/api/admin/assignment-groups', { name: 'Everything', assignmentIds: ids });
    expect(g.statusCode).toBe(201);
    const gid = g.json<{ data: { id: number } }>().data.id;
    const details = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(details.json<{ data: { assignmentGroups: unknown[] } }>().data.assignmentGroups).toContainEqual({ id: gid, name: 'Everything', assignmentIds: [...ids].sort((x, y) => x - y) });
    const bad = await api(admin, 'PUT', `/api/admin/assignment-groups/${gid}`, { name: 'E', assignmentIds: [424242] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('assignmentIds');
    expect((await api(admin, 'DELETE', `/api/admin/assignment-groups/${gid}`)).statusCode).toBe(200);
  });

  it('when an admin creates a supervisor with a password, then it can log in, the hash is scrypt, and the password never answers', async () => {
    const res = await api(admin, 'POST', '/api/admin/users', { email: 'Sue@Demo.Lobby', name: 'Sue', role: 'supervisor', password: 'a-long-enough-password' });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ data: { id: number } }>().data.id;
    const row = await t.db.kysely.selectFrom('users').select(['password_hash', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.email).toBe('sue@demo.lobby');
    await login(t.app, 'sue@demo.lobby', 'a-long-enough-password');

    const list = await api(admin, 'GET', '/api/admin/users');
    expect(list.body).not.toContain('scrypt');
    expect(list.json<{ data: { users: AdminUser[] } }>().data.users.find((u) => u.id === id)).toMatchObject({ role: 'supervisor', name: 'Sue' });

    const dup = await api(admin, 'POST', '/api/admin/users', { email: 'sue@demo.lobby', name: 'Sue 2', role: 'agent', password: 'a-long-enough-password' });
    expect(dup.statusCode).toBe(409);
    const short = await api(admin, 'POST', '/api/admin/users', { email: 'x@demo.lobby', name: 'X', role: 'agent', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toContain('password');
  });

  it('when an admin resets a password, then the old sessions end; the last admin cannot be demoted nor delete itself', async () => {
    const u = await addUser(t.db, { companyId: DEMO.companyId, password: 'first-password-1' });
    const cookie = await login(t.app, u.email, u.password);
    expect((await api(admin, 'PUT', `/api/admin/users/${u.id}`, { password: 'second-password-2' })).statusCode).toBe(200);
    expect((await api(cookie, 'GET', '/api/console/me')).statusCode).toBe(401);
    await login(t.app, u.email, 'second-password-2');

    const me = await api(admin, 'GET', '/api/console/me');
    const adminId = me.json<{ data: { user: { id: number } } }>().data.user.id;
    const demote = await api(admin, 'PUT', `/api/admin/users/${adminId}`, { role: 'agent' });
    expect(demote.statusCode).toBe(409);
    expect((await api(admin, 'DELETE', `/api/admin/users/${adminId}`)).statusCode).toBe(409);
    expect((await api(admin, 'DELETE', `/api/admin/users/${u.id}`)).statusCode).toBe(200);
  });

  it('when an admin sets opening hours with closed days, then the guest-facing schedule has them; a bad zone or period is 400', async () => {
    const schedule = { timezone: 'Europe/Berlin', weekly: [{ day: 2, from: '09:00', to: '12:00' }, { day: 1, from: '08:00', to: '16:00' }], closedDays: ['2026-12-25'] };
    const res = await api(admin, 'PUT', '/api/admin/schedule', { schedule });
    expect(res.statusCode).toBe(200);
    const got = await api(admin, 'GET', '/api/admin/company');
    expect(got.json<{ data: { schedule: unknown } }>().data.schedule).toEqual({
      timezone: 'Europe/Berlin',
      weekly: [{ day: 1, from: '08:00', to: '16:00' }, { day: 2, from: '09:00', to: '12:00' }],
      closedDays: ['2026-12-25'],
    });
    const zone = await api(admin, 'PUT', '/api/admin/schedule', { schedule: { ...schedule, timezone: 'Mars/Olympus' } });
    expect(zone.statusCode).toBe(400);
    expect(zone.json<{ message: string }>().message).toContain('timezone');
    const period = await api(admin, 'PUT', '/api/admin/schedule', { schedule: { ...schedule, weekly: [{ day: 1, from: '17:00', to: '09:00' }] } });
    expect(period.statusCode).toBe(400);
    expect(period.json<{ message: string }>().message).toContain('weekly/0');
    expect((await api(admin, 'PUT', '/api/admin/schedule', { schedule: null })).statusCode).toBe(200);
    expect((await api(admin, 'GET', '/api/admin/schedule')).json<{ data: { schedule: unknown } }>().data.schedule).toBeNull();
  });

  it('when an admin books an appointment for an agent, then it has a link /appointment/{reference}; the agent sees only its own', async () => {
    const startsAt = new Date(t.clock.now + 3600_000).toISOString();
    const res = await api(admin, 'POST', '/api/admin/appointments', { agentId, startsAt, note: 'Contract review' });
    expect(res.statusCode).toBe(201);
    const a = res.json<{ data: { id: number; reference: string; link: string; agentId: number; startsAt: string } }>().data;
    expect(a.reference).toMatch(/^[a-z2-9]{12}$/);
    expect(a.link).toBe(`/appointment/${a.reference}`);
    expect(a).toMatchObject({ agentId, startsAt });

    const u = await addUser(t.db, { companyId: DEMO.companyId, password: 'other-agent-password' });
    const other = await login(t.app, u.email, u.password);
    expect((await api(agent, 'GET', '/api/admin/appointments')).json<{ data: { appointments: Array<{ id: number }> } }>().data.appointments.map((x) => x.id)).toContain(a.id);
    expect((await api(other, 'GET', '/api/admin/appointments')).json<{ data: { appointments: unknown[] } }>().data.appointments).toEqual([]);
    // An agent books for itself only, and cannot cancel another's.
    expect((await api(other, 'POST', '/api/admin/appointments', { agentId, startsAt })).statusCode).toBe(403);
    expect((await api(other, 'POST', '/api/admin/appointments', { agentId: u.id, startsAt })).statusCode).toBe(201);
    expect((await api(other, 'DELETE', `/api/admin/appointments/${a.id}`)).statusCode).toBe(403);
    expect((await api(agent, 'DELETE', `/api/admin/appointments/${a.id}`)).statusCode).toBe(200);
  });
});
