import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, registerGuest, resumeAfterHold } from '../../../helpers/fixtures.ts';
import { deadJanusNode, nodeOfRoom, roomOn } from '../../../helpers/deadJanusNodes.ts';

/** POST /api/console/calls/:callId/media: a console user's way into a call of its own company. */
describe.each(dialects())('console media grant (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  let agent: string;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms } });
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  const media = (cookie: string, callId: string) => t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie } });

  it("when an agent asks for a call of its company, then it gets the call's grant, recorded as the company says", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    const res = await media(agent, call.callId);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { token: string } }>().data.token).toBe(`token-${call.callId}`);
    expect(rooms.grants.at(-1)).toMatchObject({ side: 'agent', callId: call.callId, companyId: DEMO.companyId, record: expect.any(Boolean) as boolean });
  });

  it("when the guest's room is not open, then 409", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    rooms.roomOpen = false;
    try {
      expect((await media(agent, call.callId)).statusCode).toBe(409);
    } finally {
      rooms.roomOpen = true;
    }
  });

  it("when an agent whose media session was lost asks with ?rejoin=true, then the media rooms are asked to re-create; a rejoin that is not a boolean is a 400 naming it", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    const res = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media?rejoin=true`, headers: { cookie: agent } });
    expect(res.statusCode).toBe(200);
    expect(rooms.grants.at(-1)).toMatchObject({ side: 'agent', callId: call.callId, rejoin: true });
    await media(agent, call.callId);
    expect(rooms.grants.at(-1)?.rejoin).toBeUndefined();
    const bad = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media?rejoin=maybe`, headers: { cookie: agent } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('rejoin');
  });

  /** A console user of the demo company: its cookie and XMPP username (the agent's id in a report). */
  const consoleUser = async (u: { role?: 'agent' | 'supervisor'; assignmentIds?: number[] }) => {
    const added = await addUser(t.db, { companyId: DEMO.companyId, password: 'media-rule-password', ...u });
    const row = await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', added.id).executeTakeFirstOrThrow();
    return { id: added.id, cookie: await login(t.app, added.email, added.password), xmpp: row.xmpp_username };
  };
  const setAgent = async (guest: { access_token: string }, callId: string, xmpp: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update', headers: bearer(guest.access_token), payload: { call_id: callId, agent: `${xmpp}@lobby.local` } });
    expect(res.statusCode).toBe(200);
  };
  const answeredAt = async (callId: string) =>
    (await t.db.kysely.selectFrom('call_reports').select('agent_answered_at').where('call_id', '=', callId).executeTakeFirstOrThrow()).agent_answered_at;

  it("when an agent of another of the company's assignments asks, then 403, no grant and no answer recorded", async () => {
    const other = await addAssignment(t.db, DEMO.companyId, `Billing ${dialect}`);
    const outsider = await consoleUser({ assignmentIds: [other] });
    const call = await openCall(t.app, await registerGuest(t.app));
    const before = rooms.grants.length;

    const res = await media(outsider.cookie, call.callId);

    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/^callId: /);
    expect(rooms.grants.length).toBe(before);
    expect(await answeredAt(call.callId)).toBeNull();
  });

  it("when a supervisor asks (to join), then it gets the grant: it sees every assignment's calls", async () => {
    const supervisor = await consoleUser({ role: 'supervisor' });
    const call = await openCall(t.app, await registerGuest(t.app));

    expect((await media(supervisor.cookie, call.callId)).statusCode).toBe(200);
  });

  it('when the call was handed to an agent of another assignment (its agent now), then that agent gets the grant, and after a resume too', async () => {
    const other = await addAssignment(t.db, DEMO.companyId, `Returns ${dialect}`);
    const taker = await consoleUser({ assignmentIds: [other] });
    const guest = await registerGuest(t.app);
    const call = await openCall(t.app, guest, { assignment_id: guest.guestRooms[0]?.assignmentId });
    expect((await media(taker.cookie, call.callId)).statusCode).toBe(403);
    expect((await media(agent, call.callId)).statusCode).toBe(200);
    const handed = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/transfer`, headers: { cookie: agent }, payload: { toUserId: taker.id } });
    expect(handed.statusCode).toBe(201);
    const accepted = await t.app.inject({ method: 'POST', url: `/api/console/transfers/${handed.json<{ data: { id: number } }>().data.id}/accept`, headers: { cookie: taker.cookie } });
    expect(accepted.statusCode).toBe(200);

    const taken = await media(taker.cookie, call.callId);
    const resumed = await resumeAfterHold(t.app, guest, call.callId);
    const followed = await media(taker.cookie, resumed);

    expect(taken.statusCode).toBe(200);
    expect(followed.statusCode).toBe(200);
  });

  it("when the guest names an agent of another assignment before anyone answered, then that agent is still refused: the guest's word picks nobody", async () => {
    const other = await addAssignment(t.db, DEMO.companyId, `Claims ${dialect}`);
    const named = await consoleUser({ assignmentIds: [other] });
    const guest = await registerGuest(t.app);
    const call = await openCall(t.app, guest);
    await setAgent(guest, call.callId, named.xmpp);
    const before = rooms.grants.length;

    const res = await media(named.cookie, call.callId);

    expect(res.statusCode).toBe(403);
    expect(rooms.grants.length).toBe(before);
    expect(await answeredAt(call.callId)).toBeNull();
  });

  it("when an appointment call is asked for, then only the appointment's agent gets it, not the assignment's agents nor a supervisor", async () => {
    const booked = await consoleUser({});
    const supervisor = await consoleUser({ role: 'supervisor' });
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const made = await t.app.inject({ method: 'POST', url: '/api/admin/appointments', headers: { cookie: admin }, payload: { agentId: booked.id, startsAt: '2030-01-02T10:00:00.000Z' } });
    expect(made.statusCode).toBe(201);
    const { reference } = made.json<{ data: { reference: string } }>().data;
    const call = await openCall(t.app, await registerGuest(t.app), { appointment_reference: reference });

    const byAssignmentAgent = await media(agent, call.callId);
    const bySupervisor = await media(supervisor.cookie, call.callId);
    const byBooked = await media(booked.cookie, call.callId);

    expect([byAssignmentAgent.statusCode, bySupervisor.statusCode, byBooked.statusCode]).toEqual([403, 403, 200]);
  });

  it("when a user of another company asks, then 404 as for an unknown call", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    const other = await addCompany(t.db, { name: 'Other media company' });
    const u = await addUser(t.db, { companyId: other, password: 'other-company-pw' });
    const res = await media(await login(t.app, u.email, u.password), call.callId);
    expect(res.statusCode).toBe(404);
  });
});

/** POST /api/console/media/standby: a console user's standby Janus token (a warm session, no room). */
/**
 * docs/protocol.md "Media session lost": the call's room's node is down and no other serving node takes
 * it, so the room cannot be made again; the console is told the media service is out (503), not 500.
 */
describe.each(dialects())("console rejoin with no Janus node answering (%s)", (dialect) => {
  let t: TestContext;
  let agent: string;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { janusNodes: [deadJanusNode('janus-1')] } });
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  const rejoin = (cookie: string, callId: string) =>
    t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media?rejoin=true`, headers: { cookie } });

  it("when an agent rejoins and no node answers to make the room again, then 503 naming Janus and the room, its row left on its node; an agent of another assignment is still 403, and a room the server closed still 409", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    await roomOn(t.db, 'janus-1', { callId: call.callId, companyId: DEMO.companyId });

    const res = await rejoin(agent, call.callId);

    expect(res.statusCode).toBe(503);
    expect(res.json<{ message: string }>().message).toBe(
      `janus: no Janus node answers to make the media room of ${call.callId} again (its node is down); ask again`,
    );
    expect(await nodeOfRoom(t.db, call.callId)).toBe('janus-1');
    const other = await addAssignment(t.db, DEMO.companyId, `Rejoin ${dialect}`);
    const outsider = await addUser(t.db, { companyId: DEMO.companyId, password: 'media-rule-password', assignmentIds: [other] });
    expect((await rejoin(await login(t.app, outsider.email, outsider.password), call.callId)).statusCode).toBe(403);
    const closed = await openCall(t.app, await registerGuest(t.app));
    await roomOn(t.db, 'janus-1', { callId: closed.callId, companyId: DEMO.companyId, destroyed: true });
    expect((await rejoin(agent, closed.callId)).statusCode).toBe(409);
  });
});

describe.each(dialects())('console standby Janus token (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { mediaStandby: true } });
  });
  afterAll(async () => t.close());

  const standby = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/console/media/standby', headers });

  it('when a console user asks, then it gets a token for itself as an agent in no room, valid as long as a call may stay open', async () => {
    for (const [email, password, username] of [
      [DEMO.agentEmail, DEMO.agentPassword, 'agent-18'],
      [DEMO.adminEmail, DEMO.adminPassword, 'admin-18'],
    ] as const) {
      const res = await standby({ cookie: await login(t.app, email, password) });
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json<{ data: { token: string; expires_in: number } }>();
      expect(data.expires_in).toBe(t.app.services.config.openCallHours * 3600);
      expect(t.app.services.janusTokens.verify(data.token)).toEqual({
        expiry: Math.floor(t.clock.now / 1000) + data.expires_in,
        room: null,
        participant: { role: 'agent', username },
      });
    }
  });

  it("when there is no session, a forged one or a guest's bearer token, then 401 and no token", async () => {
    const g = await registerGuest(t.app);
    const refused: Array<Record<string, string>> = [{}, { cookie: 'lobby_session=forged' }, bearer(g.access_token)];
    for (const headers of refused) {
      const res = await standby(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.body).not.toContain('janus.plugin.videoroom');
    }
  });
});

describe.each(dialects())('console standby Janus token, deployment default (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when the deployment keeps no standby sessions (LOBBY_MEDIA_STANDBY unset), then an agent is told off and gets no token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/console/media/standby',
      headers: { cookie: await login(t.app, DEMO.agentEmail, DEMO.agentPassword) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { standby: 'off' } });
  });
});
