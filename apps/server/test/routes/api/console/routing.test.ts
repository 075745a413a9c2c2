import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { SseClient } from '../../../helpers/sse.ts';
import { connect } from '../../../helpers/sse.ts';

/** Round robin through the API: offers reach the consoles, decline moves them, availability counts. */
describe.each(dialects())('round robin routes (%s)', (dialect) => {
  let t: TestContext;
  let port: number;
  let salesId: number;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestContext(dialect); // the demo company has roundRobin on
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    salesId = (await registerGuest(t.app)).guestRooms[0]?.assignmentId ?? 0;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  async function onlineAgent() {
    const u = await addUser(t.db, { companyId: DEMO.companyId, password: 'rr-agent-pw', assignmentIds: [salesId] });
    const cookie = await login(t.app, u.email, u.password);
    const xmpp = (await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', u.id).executeTakeFirstOrThrow()).xmpp_username;
    const events = await connect(port, cookie);
    streams.push(events);
    return { ...u, cookie, xmpp, events };
  }
  const routingEvents = (c: SseClient) => c.events.filter((e) => e.event === 'callRouting').map((e) => e.data as { callId: string; state: string; offeredTo: string | null });

  it('when a guest calls, then one online agent is offered it, every agent of the assignment hears where it stands, and a decline moves it on', async () => {
    const a = await onlineAgent();
    const b = await onlineAgent();
    // only a and b are online: the demo agent has no event stream open
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g, { assignment_id: salesId });
    await a.events.waitFor(2); // callOpened + callRouting
    await b.events.waitFor(2);
    const first = routingEvents(a.events)[0];
    expect(first).toMatchObject({ callId: call.callId, state: 'offered' });
    expect([a.xmpp, b.xmpp]).toContain(first?.offeredTo);
    expect(routingEvents(b.events)[0]).toEqual(first);
    const [offered, other] = first?.offeredTo === a.xmpp ? [a, b] : [b, a];

    const rooms = await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: other.cookie } });
    const listed = rooms.json<{ data: { rooms: Array<{ callId: string; routing?: { offeredTo: string } }> } }>().data.rooms.find((r) => r.callId === call.callId);
    expect(listed?.routing?.offeredTo).toBe(offered.xmpp);

    // the other agent cannot decline for the offered one
    const wrong = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/decline`, headers: { cookie: other.cookie } });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json<{ message: string }>().message).toMatch(/^callId:/);

    const declined = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/decline`, headers: { cookie: offered.cookie } });
    expect(declined.statusCode).toBe(200);
    expect(declined.json<{ data: { state: string; offeredTo: string } }>().data).toMatchObject({ state: 'offered', offeredTo: other.xmpp });
    await offered.events.waitFor(3);
    expect(routingEvents(offered.events).at(-1)).toMatchObject({ state: 'offered', offeredTo: other.xmpp });

    // the guest's answered timestamp ends the routing: nothing left to decline
    await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: call.callId, call_answered_timestamp: true } });
    const late = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/decline`, headers: { cookie: other.cookie } });
    expect(late.statusCode).toBe(404);
  });

  it('when every online agent is away or busy, then a new call is open to all at once', async () => {
    const a = await onlineAgent();
    const res = await t.app.inject({ method: 'POST', url: '/api/console/availability', headers: { cookie: a.cookie }, payload: { availability: 'away' } });
    expect(res.statusCode).toBe(200);
    const g = await registerGuest(t.app);
    const others = await t.db.kysely.selectFrom('users').select(['id']).where('company_id', '=', DEMO.companyId).execute();
    for (const u of others) if (u.id !== a.id) await t.app.services.roundRobin.setAvailability(u.id, { away: false, busy: true });
    const call = await openCall(t.app, g, { assignment_id: salesId });
    expect(await t.app.services.roundRobin.routing(call.callId)).toMatchObject({ state: 'open', offeredTo: null });
    for (const u of others) await t.app.services.roundRobin.setAvailability(u.id, { away: false, busy: false });
  });

  it('when the availability body is wrong, then 400 naming the field; without a session 401', async () => {
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const bad = await t.app.inject({ method: 'POST', url: '/api/console/availability', headers: { cookie }, payload: { availability: 'sleeping' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/availability/);
    expect((await t.app.inject({ method: 'POST', url: '/api/console/availability', payload: { availability: 'away' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/console/calls/g0123456789abcdef--x/decline' })).statusCode).toBe(401);
  });

  it("when an agent of another company declines this company's offered call, then 404 as if it did not exist", async () => {
    const a = await onlineAgent();
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g, { assignment_id: salesId });
    expect((await t.app.services.roundRobin.routing(call.callId))?.state).toBe('offered');
    void a;
    const other = await addCompany(t.db, { name: 'Other RR' });
    const desk = await addAssignment(t.db, other, 'Desk');
    const stranger = await addUser(t.db, { companyId: other, password: 'stranger-rr-pw', assignmentIds: [desk] });
    const cookie = await login(t.app, stranger.email, stranger.password);
    const res = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/decline`, headers: { cookie } });
    expect(res.statusCode).toBe(404);
  });

  it('when the company does not use round robin, then calls are not routed (open to all, no offers)', async () => {
    const other = await addCompany(t.db, { name: 'No RR' });
    await addAssignment(t.db, other, 'Desk');
    const g = await registerGuest(t.app, { companyId: other });
    const call = await openCall(t.app, g);
    expect(await t.app.services.roundRobin.routing(call.callId)).toBeNull();
  });
});
