import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('GET /api/console/rooms (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it("when guests open calls, then an agent sees the open calls of its assignments only, oldest first, and ended calls vanish", async () => {
    const g1 = await registerGuest(t.app);
    const g2 = await registerGuest(t.app);
    const [sales, support] = g1.guestRooms;
    const onlySupport = await addUser(t.db, { companyId: 18, password: 'support-only-pw', assignmentIds: [support?.assignmentId ?? 0] });
    const c1 = await openCall(t.app, g1, { assignment_id: sales?.assignmentId });
    t.clock.now += 1000;
    const c2 = await openCall(t.app, g2, { assignment_id: support?.assignmentId });
    // another guest: a guest has one open call (a second one would end c2: open-calls.test.ts)
    const g3 = await registerGuest(t.app);
    const c3 = await openCall(t.app, g3, { assignment_id: support?.assignmentId });
    await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update-timestamp',
      headers: bearer(g3.access_token),
      payload: { call_id: c3.callId, call_ended_timestamp: true },
    });

    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: agent } });
    expect(res.statusCode).toBe(200);
    const rooms = res.json<{ data: { rooms: Array<Record<string, unknown>> } }>().data.rooms;
    expect(rooms.map((r) => r.callId)).toEqual([c1.callId, c2.callId]);
    expect(rooms[0]).toEqual({
      room: sales?.room,
      assignmentId: sales?.assignmentId,
      assignmentName: 'Sales',
      guestUsername: g1.username,
      callId: c1.callId,
      reportId: c1.reportId,
      openedAt: new Date(t.clock.now - 1000).toISOString(),
      // the demo company uses round robin; with no agent's console open, the call is open to all
      routing: { callId: c1.callId, assignmentId: sales?.assignmentId, state: 'open', offeredTo: null, expiresAt: null, offerSeconds: null },
    });

    const supportAgent = await login(t.app, onlySupport.email, onlySupport.password);
    const res2 = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: supportAgent } });
    expect(res2.json<{ data: { rooms: Array<{ callId: string }> } }>().data.rooms.map((r) => r.callId)).toEqual([c2.callId]);
  });

  it('when calls are older than the open-call window, then they are not listed', async () => {
    const g = await registerGuest(t.app);
    const old = await openCall(t.app, g);
    t.clock.now += (t.config.openCallHours * 3600 + 1) * 1000;
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: agent } });
    expect(res.json<{ data: { rooms: Array<{ callId: string }> } }>().data.rooms.map((r) => r.callId)).not.toContain(old.callId);
  });

  it("when an agent of another company asks, then it never sees this company's calls", async () => {
    const other = await addCompany(t.db, { name: 'Other' });
    const otherAssignment = await addAssignment(t.db, other, 'Desk');
    const stranger = await addUser(t.db, { companyId: other, password: 'stranger-pw', role: 'admin', assignmentIds: [otherAssignment] });
    const g = await registerGuest(t.app);
    await openCall(t.app, g);
    const cookie = await login(t.app, stranger.email, stranger.password);
    const res = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { rooms: unknown[] } }>().data.rooms).toEqual([]);
  });

  it('when there is no session, then 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/console/rooms' })).statusCode).toBe(401);
  });
});
