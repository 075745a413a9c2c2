import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, otherCompanyGuest, registerGuest } from '../../../helpers/fixtures.ts';
import { connect } from '../../../helpers/sse.ts';

/** Appointment calls: the guest looks its appointment up, the report checks it, only its agent is told. */
describe.each(dialects())('appointment calls (%s)', (dialect) => {
  let t: TestContext;
  let port: number;
  let admin: string;
  /** an agent of no assignment at all: it reaches the call only because it is the appointment's agent */
  let booked: { id: number; email: string; password: string };
  let reference: string;
  let appointmentId: number;
  let xmpp: string;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    booked = await addUser(t.db, { companyId: DEMO.companyId, password: 'booked-agent-pw' });
    xmpp = (await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', booked.id).executeTakeFirstOrThrow()).xmpp_username;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/appointments',
      headers: { cookie: admin },
      payload: { agentId: booked.id, startsAt: '2030-01-02T10:00:00.000Z', note: 'private note' },
    });
    expect(res.statusCode).toBe(201);
    ({ reference, id: appointmentId } = res.json<{ data: { reference: string; id: number } }>().data);
  });
  afterAll(async () => t.close());

  it('when a guest of the company looks its reference up, then it gets the id, the agent username in lowercase and the time, nothing more', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/api/appointment/${reference}`, headers: bearer(g.access_token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { id: appointmentId, reference, agentUsername: xmpp.toLowerCase(), startsAt: '2030-01-02T10:00:00.000Z' },
    });
  });

  it('when the reference is unknown or of another company, then 404 naming the reference', async () => {
    const g = await registerGuest(t.app);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/appointment/nosuchref', headers: bearer(g.access_token) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toMatch(/^reference:/);
    const foreign = await otherCompanyGuest(t.app, t.db);
    const other = await t.app.inject({ method: 'GET', url: `/api/appointment/${reference}`, headers: bearer(foreign.access_token) });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain(xmpp);
  });

  it('when nobody or a console user (no guest token) asks, then 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/appointment/${reference}` })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: `/api/appointment/${reference}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(401);
  });

  it("when a report names an unknown or another company's appointment, then 400 naming appointment_reference", async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--a1`, company: 18, source: 'site', appointment_reference: 'nosuchref' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^appointment_reference:/);

    const otherCompany = await addCompany(t.db, { name: 'Elsewhere' });
    await addAssignment(t.db, otherCompany, 'Desk');
    const foreignGuest = await registerGuest(t.app, { companyId: otherCompany });
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(foreignGuest.access_token),
      payload: { call_id: `${foreignGuest.username}--a2`, company: otherCompany, source: 'site', appointment_reference: reference },
    });
    expect(foreign.statusCode).toBe(400);
  });

  it("when a guest calls with its appointment, then only the appointment's agent is told and lists it, and it becomes an admin of the guest's room", async () => {
    const bookedCookie = await login(t.app, booked.email, booked.password);
    const demoAgent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const bookedEvents = await connect(port, bookedCookie);
    const demoEvents = await connect(port, demoAgent);
    try {
      const g = await registerGuest(t.app);
      const sales = g.guestRooms[0];
      const appointmentCall = await openCall(t.app, g, { assignment_id: sales?.assignmentId, appointment_reference: reference });
      // an ordinary call after it: the demo agent's stream is live and would have shown the first one before it
      const g2 = await registerGuest(t.app);
      const plain = await openCall(t.app, g2, { assignment_id: sales?.assignmentId });

      await bookedEvents.waitFor(1);
      await demoEvents.waitFor(1);
      const opened = (c: typeof bookedEvents) => c.events.filter((e) => e.event === 'callOpened').map((e) => (e.data as { callId: string }).callId);
      const routed = (c: typeof bookedEvents) => c.events.filter((e) => e.event === 'callRouting').map((e) => (e.data as { callId: string }).callId);
      expect(opened(bookedEvents)).toEqual([appointmentCall.callId]);
      expect(opened(demoEvents)).toEqual([plain.callId]);
      // an appointment call has its agent: round robin never offers it to anybody
      expect([...routed(bookedEvents), ...routed(demoEvents)]).not.toContain(appointmentCall.callId);

      const report = await t.db.kysely.selectFrom('call_reports').select('appointment_reference').where('call_id', '=', appointmentCall.callId).executeTakeFirstOrThrow();
      expect(report.appointment_reference).toBe(reference);
      expect(t.ejabberd.calls).toContainEqual({
        command: 'setAffiliation',
        args: { room: sales?.room.split('@')[0], jid: `${xmpp}@${t.config.xmppDomain}`, affiliation: 'admin' },
      });

      const roomsOf = async (cookie: string) =>
        (await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie } }))
          .json<{ data: { rooms: Array<{ callId: string }> } }>()
          .data.rooms.map((r) => r.callId);
      expect(await roomsOf(bookedCookie)).toEqual([appointmentCall.callId]);
      const demoRooms = await roomsOf(demoAgent);
      expect(demoRooms).toContain(plain.callId);
      expect(demoRooms).not.toContain(appointmentCall.callId);
      // an admin sees the company's calls, but not another agent's appointment either
      expect(await roomsOf(admin)).not.toContain(appointmentCall.callId);
    } finally {
      bookedEvents.close();
      demoEvents.close();
    }
  });
});
