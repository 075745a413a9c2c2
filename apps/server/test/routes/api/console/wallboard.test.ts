import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import { connect } from '../../../helpers/sse.ts';

/**
 * docs/api.md "Wall board": calls waiting and the longest wait per assignment, today's answered, abandoned
 * and booked calls and the service level, for supervisors and admins; a `wallboard` event on each change.
 */
describe.each(dialects())('GET /api/console/wallboard (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let port: number;
  const NOW = Date.parse('2030-01-07T10:00:00Z');
  type Board = {
    queues: Array<{ assignmentId: number | null; name: string; waiting: number; longestWaitSince: string | null }>;
    agents: { available: number; inCall: number; away: number };
    today: { day: string; answered: number; abandoned: number; booked: number; serviceLevel: number | null; serviceLevelSeconds: number };
  };
  const board = async (cookie = admin) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/wallboard', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Board }>().data;
  };

  beforeAll(async () => {
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    t.clock.now = NOW;
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/company',
      headers: { cookie: admin },
      payload: {
        appointmentBooking: true,
        serviceLevelSeconds: 30,
        schedule: { timezone: 'UTC', weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, from: '00:00', to: '23:59' })) },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('when calls are answered, abandoned, booked and waiting, then the board counts each as the reports do, with the longest wait and the service level', async () => {
    const before = await board();
    expect(before.today).toEqual({ day: '2030-01-07', answered: 0, abandoned: 0, booked: 0, serviceLevel: null, serviceLevelSeconds: 30 });
    expect(before.queues.every((q) => q.waiting === 0 && q.longestWaitSince === null)).toBe(true);

    // answered after 10 s (within the 30 s target) and after 50 s (not within); with the one abandoned: 1 of 3
    const first = await registerGuest(t.app);
    const slow = await registerGuest(t.app);
    t.clock.now = NOW - 10_000;
    const a1 = await openCall(t.app, first);
    t.clock.now = NOW;
    await answer(first, a1.callId);
    t.clock.now = NOW - 50_000;
    const a2 = await openCall(t.app, slow);
    t.clock.now = NOW;
    await answer(slow, a2.callId);

    // abandoned: the guest left unanswered
    const leaver = await registerGuest(t.app);
    const left = await openCall(t.app, leaver);
    const end = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(leaver.access_token), payload: { call_id: left.callId, call_ended_timestamp: true, guest_exit_timestamp: true } });
    expect(end.statusCode).toBe(200);

    // booked: a waiting guest books a time instead, then leaves
    const booker = await registerGuest(t.app);
    const waitingCall = await openCall(t.app, booker);
    const booked = await t.app.inject({ method: 'POST', url: '/api/booking', headers: bearer(booker.access_token), payload: { startsAt: '2030-01-07T12:00:00.000Z', callType: 'video', name: 'Booker', call_id: waitingCall.callId } });
    expect(booked.statusCode, booked.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(booker.access_token), payload: { call_id: waitingCall.callId, call_ended_timestamp: true, guest_exit_timestamp: true } });

    // two still waiting on the guests' first assignment, the older since 2 minutes
    t.clock.now = NOW - 120_000;
    const w1 = await registerGuest(t.app);
    await openCall(t.app, w1);
    t.clock.now = NOW - 30_000;
    await openCall(t.app, await registerGuest(t.app));
    t.clock.now = NOW;

    const after = await board();
    expect(after.today).toEqual({ day: '2030-01-07', answered: 2, abandoned: 1, booked: 1, serviceLevel: 1 / 3, serviceLevelSeconds: 30 });
    const waiting = after.queues.filter((q) => q.waiting > 0);
    expect(waiting).toEqual([{ assignmentId: w1.guestRooms[0]?.assignmentId ?? null, name: expect.any(String) as string, waiting: 2, longestWaitSince: new Date(NOW - 120_000).toISOString() }]);

    async function answer(g: Awaited<ReturnType<typeof registerGuest>>, callId: string) {
      const guestGrant = await t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(g.access_token), payload: { call_id: callId } });
      expect(guestGrant.statusCode, guestGrant.body).toBe(200);
      const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
      const grant = await t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: agent } });
      expect(grant.statusCode, grant.body).toBe(200);
      const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, call_answered_timestamp: true } });
      expect(res.statusCode).toBe(200);
    }
  });

  it('when a call opens, then an admin’s event stream hears `wallboard` and an agent’s does not', async () => {
    const adminStream = await connect(port, admin);
    const agentStream = await connect(port, await login(t.app, DEMO.agentEmail, DEMO.agentPassword));
    await openCall(t.app, await registerGuest(t.app));
    await adminStream.waitFor(2);
    await agentStream.waitFor(1);
    await new Promise((r) => setTimeout(r, 50));
    adminStream.close();
    agentStream.close();
    expect(adminStream.events.map((e) => e.event)).toContain('wallboard');
    expect(agentStream.events.map((e) => e.event)).not.toContain('wallboard');
  });

  it('when an agent asks for the board, then 403 naming the role', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/wallboard', headers: { cookie: await login(t.app, DEMO.agentEmail, DEMO.agentPassword) } });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/^role: /);
  });
});
