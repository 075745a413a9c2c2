import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { addAssignment, addCompany, addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

/** Transfer routes: who may hand a call over, who may take it, and what the database keeps. */
describe.each(dialects())('call transfers (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
  });
  afterAll(async () => t.close());

  const xmppOf = async (id: number) =>
    (await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', id).executeTakeFirstOrThrow()).xmpp_username;

  /** A call the demo agent answered: its console took the call's media (the server's record of who answered). */
  async function answeredCall() {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g, { assignment_id: g.guestRooms[0]?.assignmentId });
    const demo = await t.db.kysely.selectFrom('users').select(['id', 'xmpp_username']).where('email', '=', DEMO.agentEmail).executeTakeFirstOrThrow();
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const grant = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media`, headers: { cookie } });
    expect(grant.statusCode).toBe(200);
    return { g, call, demoId: demo.id };
  }
  const transfer = (cookie: string | undefined, callId: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/transfer`, headers: cookie ? { cookie } : {}, payload: payload as Record<string, unknown> });

  it('when the agent of a call transfers it and the other agent takes it, then the transfer is stored, the taker is made room admin and becomes the report agent', async () => {
    const { g, call, demoId } = await answeredCall();
    const taker = await addUser(t.db, { companyId: DEMO.companyId, password: 'taker-pw' });
    const takerJid = `${await xmppOf(taker.id)}@${t.config.xmppDomain}`;
    const demo = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const transferred: unknown[] = [];
    const accepted: unknown[] = [];
    const off1 = t.events.subscribe('callTransfer', (e) => transferred.push(e));
    const off2 = t.events.subscribe('transferAccepted', (e) => accepted.push(e));

    const res = await transfer(demo, call.callId, { toUserId: taker.id });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ data: { id: number } }>().data.id;
    expect(transferred).toEqual([expect.objectContaining({ id, callId: call.callId, toUserId: taker.id, guestUsername: g.username })]);
    expect(t.ejabberd.calls).toContainEqual({ command: 'setAffiliation', args: { room: g.guestRooms[0]?.room.split('@')[0], jid: takerJid, affiliation: 'admin' } });

    // nobody but the addressee takes it
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    expect((await t.app.inject({ method: 'POST', url: `/api/console/transfers/${id}/accept`, headers: { cookie: admin } })).statusCode).toBe(403);
    const takerCookie = await login(t.app, taker.email, taker.password);
    const ok = await t.app.inject({ method: 'POST', url: `/api/console/transfers/${id}/accept`, headers: { cookie: takerCookie } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { id, callId: call.callId, room: g.guestRooms[0]?.room, guestUsername: g.username } });
    expect(accepted).toEqual([{ companyId: DEMO.companyId, id, callId: call.callId, toJid: takerJid }]);
    // twice: already taken
    expect((await t.app.inject({ method: 'POST', url: `/api/console/transfers/${id}/accept`, headers: { cookie: takerCookie } })).statusCode).toBe(409);
    off1();
    off2();

    const row = await t.db.kysely.selectFrom('call_reports').select('agent').where('call_id', '=', call.callId).executeTakeFirstOrThrow();
    expect(row.agent).toBe(takerJid);
    const stored = (await sql<Record<string, unknown>>`select * from call_transfers where id = ${id}`.execute(t.db.kysely)).rows[0] ?? {};
    expect(stored).toMatchObject({ call_id: call.callId, from_user_id: demoId, to_user_id: taker.id, accepted_by_user_id: taker.id });
    expect(stored.accepted_at).not.toBeNull();
    // the taker is the call's agent now: the demo agent can no longer hand it on
    expect((await transfer(demo, call.callId, { toUserId: taker.id })).statusCode).toBe(403);
  });

  it('when someone who is not the agent of the call, nobody, or another company tries, then 403 / 401 / 404', async () => {
    const { call } = await answeredCall();
    const other = await addUser(t.db, { companyId: DEMO.companyId, password: 'other-agent-pw' });
    const otherCookie = await login(t.app, other.email, other.password);
    expect((await transfer(otherCookie, call.callId, { toUserId: other.id })).statusCode).toBe(403);
    expect((await transfer(undefined, call.callId, { toUserId: other.id })).statusCode).toBe(401);
    const company = await addCompany(t.db, { name: 'Other T' });
    const desk = await addAssignment(t.db, company, 'Desk');
    const stranger = await addUser(t.db, { companyId: company, password: 'stranger-t-pw', role: 'admin', assignmentIds: [desk] });
    const strangerCookie = await login(t.app, stranger.email, stranger.password);
    expect((await transfer(strangerCookie, call.callId, { toUserId: stranger.id })).statusCode).toBe(404);
  });

  it("when the guest named an agent before anyone answered, then that agent may not hand the call on: the guest's word makes nobody its agent", async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g, { assignment_id: g.guestRooms[0]?.assignmentId });
    const named = await addUser(t.db, { companyId: DEMO.companyId, password: 'named-agent-pw' });
    const target = await addUser(t.db, { companyId: DEMO.companyId, password: 'target-agent-pw' });
    const reported = await t.app.inject({ method: 'PUT', url: '/api/call-report/update', headers: bearer(g.access_token), payload: { call_id: call.callId, agent: `${await xmppOf(named.id)}@${t.config.xmppDomain}` } });
    expect(reported.statusCode).toBe(200);

    const res = await transfer(await login(t.app, named.email, named.password), call.callId, { toUserId: target.id });

    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('callId: you are not the agent of this call');
    expect(Number((await sql<{ n: number }>`select count(*) as n from call_transfers where call_id = ${call.callId}`.execute(t.db.kysely)).rows[0]?.n)).toBe(0);
  });

  it('when the body names no target, both, yourself or a user of another company, then 4xx naming the field', async () => {
    const { call } = await answeredCall();
    const demo = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const none = await transfer(demo, call.callId, {});
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toMatch(/^toUserId:/);
    expect((await transfer(demo, call.callId, { toUserId: 1, assignmentId: 1 })).statusCode).toBe(400);
    const me = await t.db.kysely.selectFrom('users').select('id').where('email', '=', DEMO.agentEmail).executeTakeFirstOrThrow();
    expect((await transfer(demo, call.callId, { toUserId: me.id })).json<{ message: string }>().message).toMatch(/^toUserId:/);
    const company = await addCompany(t.db, { name: 'Other U' });
    const foreign = await addUser(t.db, { companyId: company, password: 'foreign-pw' });
    const res = await transfer(demo, call.callId, { toUserId: foreign.id });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/^toUserId:/);
    expect((await transfer(demo, call.callId, { assignmentId: 999999 })).json<{ message: string }>().message).toMatch(/^assignmentId:/);
  });

  it('when transfer targets are asked, then only the company agents with the console open and available come back; without a session 401', async () => {
    const demo = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await t.app.inject({ method: 'GET', url: '/api/console/transfer-targets', headers: { cookie: demo } });
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: { agents: unknown[]; assignments: Array<{ name: string }> } }>().data;
    expect(data.agents).toEqual([]); // no console has its event stream open in this test
    expect(data.assignments.map((a) => a.name)).toEqual(expect.arrayContaining(['Sales', 'Support']));
    expect((await t.app.inject({ method: 'GET', url: '/api/console/transfer-targets' })).statusCode).toBe(401);
  });
});
