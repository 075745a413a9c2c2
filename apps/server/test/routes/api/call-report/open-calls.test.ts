import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { bearer, login, openCall, registerGuest, resumeAfterHold } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

/**
 * docs/security.md "Open calls": a guest has at most one open call (a new one ends the one before, which
 * leaves the queue), and a company takes at most `maxOpenCallsPerAddress` open calls from one address.
 */
describe.each(dialects())('open calls per guest and per address (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  let agent: string;
  let admin: string;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms } });
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  const add = (g: RegisteredGuest, remoteAddress = '198.51.100.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--${crypto.randomBytes(6).toString('hex')}`, company: g.companyId, source: 'site' },
      remoteAddress,
    });
  const listed = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: agent } })).json<{ data: { rooms: Array<{ callId: string }> } }>().data.rooms.map((r) => r.callId);
  const reportOf = (callId: string) => t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();
  const openOf = async (g: RegisteredGuest) =>
    (await t.db.kysely.selectFrom('call_reports').select('call_id').where('guest_username', '=', g.username).where('call_ended_at', 'is', null).execute()).map((r) => r.call_id);
  const setCap = async (cap: number) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { maxOpenCallsPerAddress: cap } });
    expect(res.statusCode).toBe(200);
  };

  it('when a guest opens a second call, then the first is ended by the guest, leaves the consoles\' list, loses its room and its media', async () => {
    const g = await registerGuest(t.app);
    const first = await openCall(t.app, g);
    expect((await t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(g.access_token), payload: { call_id: first.callId } })).statusCode).toBe(200);
    expect(await listed()).toContain(first.callId);
    const second = await openCall(t.app, g);

    const old = await reportOf(first.callId);
    expect(old.call_ended_at).toBe(t.clock.now);
    expect(old.guest_exit_at).toBe(t.clock.now);
    expect((await reportOf(second.callId)).call_ended_at).toBeNull();
    expect(rooms.ended).toContain(first.callId);
    const now = await listed();
    expect(now).toContain(second.callId);
    expect(now).not.toContain(first.callId);
    const media = await t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(g.access_token), payload: { call_id: first.callId } });
    expect(media.statusCode).toBe(409);
    const agentMedia = await t.app.inject({ method: 'POST', url: `/api/console/calls/${first.callId}/media`, headers: { cookie: agent } });
    expect(agentMedia.statusCode).toBe(409);
  });

  it('when one guest opens eighteen calls in a row, or five at once, then only its latest one is open', async () => {
    const g = await registerGuest(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 18; i++) {
      const res = await add(g);
      expect(res.statusCode).toBe(201);
      ids.push((await t.db.kysely.selectFrom('call_reports').select('call_id').where('id', '=', res.json<{ data: { id: number } }>().data.id).executeTakeFirstOrThrow()).call_id);
    }
    expect(await openOf(g)).toEqual([ids.at(-1)]);
    expect((await listed()).filter((id) => id.startsWith(g.username))).toEqual([ids.at(-1)]);

    const burst = await Promise.all(Array.from({ length: 5 }, () => add(g)));
    expect(burst.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(await openOf(g)).toHaveLength(1);
  });

  it('when a guest holds and resumes its call, then the resumed call stays open and the held one is continued, not ended', async () => {
    const g = await registerGuest(t.app);
    const first = await openCall(t.app, g);
    const resumed = await resumeAfterHold(t.app, g, first.callId);
    expect((await reportOf(resumed)).call_ended_at).toBeNull();
    expect((await reportOf(first.callId)).call_ended_at).toBeNull();
    expect(await listed()).toContain(resumed);
    const media = await t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(g.access_token), payload: { call_id: resumed } });
    expect(media.statusCode).toBe(200);
  });

  it('when a guest with an open call also resumes an older held call, then only the resumed call stays open', async () => {
    const g = await registerGuest(t.app);
    const held = await openCall(t.app, g);
    const resumed = await resumeAfterHold(t.app, g, held.callId);
    const newer = await openCall(t.app, g);
    expect(await openOf(g)).toEqual(expect.arrayContaining([newer.callId]));
    expect(await openOf(g)).not.toContain(resumed);
  });

  it('when the company caps open calls per address, then one more call from that address is 429 naming the address until one ends', async () => {
    await setCap(2);
    const guests = await Promise.all([registerGuest(t.app), registerGuest(t.app), registerGuest(t.app)]);
    const a = await add(guests[0], '203.0.113.9');
    expect(a.statusCode).toBe(201);
    expect((await add(guests[1], '203.0.113.9')).statusCode).toBe(201);
    const third = await add(guests[2], '203.0.113.9');
    expect(third.statusCode).toBe(429);
    expect(third.json<{ message: string }>().message).toMatch(/^address: the company takes at most 2 open calls from one address/);
    // a guest already calling from there may replace its own call
    expect((await add(guests[0], '203.0.113.9')).statusCode).toBe(201);
    // another address is not counted
    expect((await add(guests[2], '203.0.113.10')).statusCode).toBe(201);
    // one ends: room again
    const [open0] = await openOf(guests[0]);
    await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(guests[0].access_token), payload: { call_id: open0, call_ended_timestamp: true } });
    const later = await registerGuest(t.app);
    expect((await add(later, '203.0.113.9')).statusCode).toBe(201);
    // 0: no cap
    await setCap(0);
    for (let i = 0; i < 3; i++) expect((await add(await registerGuest(t.app), '203.0.113.9')).statusCode).toBe(201);
    await setCap(50);
  });

  it('when an admin reads the company, then the cap has its default and refuses a negative value', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(res.json<{ data: { maxOpenCallsPerAddress: number } }>().data.maxOpenCallsPerAddress).toBe(50);
    const bad = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { maxOpenCallsPerAddress: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('maxOpenCallsPerAddress');
  });
});
