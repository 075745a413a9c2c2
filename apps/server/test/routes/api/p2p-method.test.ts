import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../helpers/context.ts';
import type { TestContext } from '../../helpers/context.ts';
import { createFakeMediaRooms } from '../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../helpers/fakes.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, registerGuest } from '../../helpers/fixtures.ts';

/**
 * The p2p call method on the server (docs/protocol.md "p2p"): the media grants of a p2p
 * company's call say so and make no Janus room; a second participant is refused; the admin cannot
 * combine p2p with recording.
 */
describe.each(dialects())('callMethod p2p (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  let companyId: number;
  let agent: { cookie: string; xmpp: string };
  let supervisor: string;
  let assignmentId: number;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms }, config: { mediaStandby: true } });
    companyId = await addCompany(t.db, { name: 'P2P Co', settings: { callMethod: 'p2p', recordCalls: false } });
    assignmentId = await addAssignment(t.db, companyId, 'P2P Sales');
    const a = await addUser(t.db, { companyId, password: 'p2p-agent-password', assignmentIds: [assignmentId] });
    const s = await addUser(t.db, { companyId, role: 'supervisor', password: 'p2p-supervisor-pw' });
    const xmpp = (await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', a.id).executeTakeFirstOrThrow()).xmpp_username;
    agent = { cookie: await login(t.app, a.email, a.password), xmpp };
    supervisor = await login(t.app, s.email, s.password);
  });
  afterAll(async () => t.close());

  const guestGrant = (token: string, callId: string) =>
    t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(token), payload: { call_id: callId } });
  const consoleGrant = (cookie: string, callId: string) =>
    t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie } });

  it('when the guest and the agent of a p2p call ask for media, then both are told p2p and no media room is made', async () => {
    const guest = await registerGuest(t.app, { companyId });
    const call = await openCall(t.app, guest, { assignment_id: assignmentId });
    const before = rooms.grants.length;
    const g = await guestGrant(guest.access_token, call.callId);
    const a = await consoleGrant(agent.cookie, call.callId);
    expect([g.statusCode, a.statusCode]).toEqual([200, 200]);
    expect(g.json()).toEqual({ data: { method: 'p2p' } });
    expect(a.json()).toEqual({ data: { method: 'p2p' } });
    expect(rooms.grants.length).toBe(before);
  });

  it("when an agent of a p2p company asks for a standby token, then it is told p2p and gets none (its calls never touch Janus)", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/console/media/standby', headers: { cookie: agent.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { method: 'p2p' } });
  });

  it('when a supervisor asks to join a p2p call its agent answered, then 409 names the call; the agent itself may (re)join', async () => {
    const guest = await registerGuest(t.app, { companyId });
    const call = await openCall(t.app, guest, { assignment_id: assignmentId });
    expect((await consoleGrant(agent.cookie, call.callId)).statusCode).toBe(200);
    const refused = await consoleGrant(supervisor, call.callId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(/^callId: .*p2pNoJoin/);
    expect((await consoleGrant(agent.cookie, call.callId)).statusCode).toBe(200);
  });

  it("when the guest names someone else as its agent before anyone answered, then the assignment's agent still answers the p2p call: the guest's word blocks nobody", async () => {
    const guest = await registerGuest(t.app, { companyId });
    const call = await openCall(t.app, guest, { assignment_id: assignmentId });
    const named = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update',
      headers: bearer(guest.access_token),
      payload: { call_id: call.callId, agent: 'somebody-else@lobby.local' },
    });
    expect(named.statusCode).toBe(200);

    const answered = await consoleGrant(agent.cookie, call.callId);

    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ data: { method: 'p2p' } });
  });

  it("when a p2p call's guest forged its answered flag, then its rating is 403 until the agent's console answers (its media request), then accepted", async () => {
    const guest = await registerGuest(t.app, { companyId });
    const call = await openCall(t.app, guest, { assignment_id: assignmentId });
    expect((await guestGrant(guest.access_token, call.callId)).statusCode).toBe(200);
    const stamp = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(guest.access_token), payload: { call_id: call.callId, call_answered_timestamp: true } });
    expect(stamp.statusCode).toBe(200);
    const rate = () =>
      t.app.inject({ method: 'POST', url: '/api/rating-form/submissions', headers: bearer(guest.access_token), payload: { guestUsername: guest.username, report: call.reportId, form: null, answers: { score: 4 } } });
    const refused = await rate();
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('report: the call was not answered');
    expect((await consoleGrant(agent.cookie, call.callId)).json()).toEqual({ data: { method: 'p2p' } });
    const accepted = await rate();
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('when a media server company asks, then it still gets its Janus grant', async () => {
    const guest = await registerGuest(t.app);
    const call = await openCall(t.app, guest);
    const res = await guestGrant(guest.access_token, call.callId);
    expect(res.json<{ data: { token: string } }>().data.token).toBe(`token-${call.callId}`);
  });

  it('when the admin sets callMethod p2p with recordCalls on, then 400 names recordCalls; with recording off it is kept', async () => {
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload });
    const refused = await put({ callMethod: 'p2p' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/^recordCalls: /);
    const kept = await put({ callMethod: 'p2p', recordCalls: false });
    expect(kept.statusCode).toBe(200);
    expect(kept.json<{ data: { callMethod: string; recordCalls: boolean } }>().data).toMatchObject({ callMethod: 'p2p', recordCalls: false });
    expect((await put({ recordCalls: true })).statusCode).toBe(400);
    expect((await put({ callMethod: 'mediaServer', recordCalls: true })).statusCode).toBe(200);
  });

  it('when a p2p company still has recordCalls on in its stored settings, then its guests are told recordCalls false (no notice)', async () => {
    const stale = await addCompany(t.db, { name: 'Stale P2P Co', settings: { callMethod: 'p2p', recordCalls: true } });
    const res = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${stale}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { callMethod: string; recordCalls: boolean } }>().data).toMatchObject({ callMethod: 'p2p', recordCalls: false });
  });
});
