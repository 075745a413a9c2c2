import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { PRESENCE_TTL_MS, RoundRobin, type CallRouting, type RoutingTimers } from '../../src/services/roundRobin.ts';
import { dialects, freshDb, type TestDb } from '../helpers/context.ts';
import { addAssignment, addCompany } from '../helpers/fixtures.ts';

/**
 * Round robin's rules on its tables, on both dialects. The clock is driven by hand: a deadline moves when
 * the test advances the clock and polls (moveDue), as the server's poll does every second.
 */
function handClock() {
  let now = 1_000_000;
  const timers: RoutingTimers & { advance(ms: number): void } = {
    now: () => now,
    setTimeout: () => null,
    clearTimeout: () => undefined,
    advance(ms) {
      now += ms;
    },
  };
  return timers;
}

describe.each(dialects())('round robin (%s)', (dialect) => {
  let t: TestDb;
  let db: Db;
  let companyId: number;
  let otherCompany: number;
  /** assignment 1 and 2 of the company in the tests' words */
  const assignment: Record<1 | 2, number> = { 1: 0, 2: 0 };
  /** the tests' agent number → its user id (ascending with the number) */
  const userIds = new Map<number, number>();

  beforeAll(async () => {
    t = await freshDb(dialect);
    db = t.db;
    companyId = await addCompany(db, { name: 'RR unit' });
    otherCompany = await addCompany(db, { name: 'RR other' });
    assignment[1] = await addAssignment(db, companyId, 'One');
    assignment[2] = await addAssignment(db, companyId, 'Two');
  });
  afterAll(() => t.drop());

  /** a fresh set of routing tables' worth of state: each test starts with nobody present */
  async function setup() {
    for (const table of ['agent_presence', 'agent_availability', 'call_routing', 'routing_rotation', 'routing_instances'] as const) {
      await db.kysely.deleteFrom(table).execute();
    }
    const timers = handClock();
    const published: CallRouting[] = [];
    const rr = new RoundRobin({ db, instanceId: 'unit-a', timers, publish: (r) => published.push(r) });
    const agent = async (n: number, assignments: Array<1 | 2> = [1], company = companyId, on = rr) => {
      let id = userIds.get(n);
      if (id === undefined) {
        const row = await db.kysely
          .insertInto('users')
          .values({ company_id: company, email: `rr-${n}-${dialect}@test.lobby`, name: `Agent ${n}`, role: 'agent', password_hash: 'x', xmpp_username: `agent-${n}`, created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
        userIds.set(n, id);
      }
      await db.kysely.deleteFrom('user_assignments').where('user_id', '=', id).execute();
      await db.kysely
        .insertInto('user_assignments')
        .values(assignments.map((a) => ({ user_id: id, assignment_id: assignment[a] })))
        .execute();
      return on.connect({ userId: id, companyId: company, xmppUsername: `agent-${n}` });
    };
    const user = (n: number) => userIds.get(n) ?? -1;
    const open = (callId: string, a: 1 | 2 = 1, offerSeconds?: number) =>
      rr.callOpened({ callId, companyId, assignmentId: assignment[a], ...(offerSeconds ? { offerSeconds } : {}) });
    return { timers, published, rr, agent, user, open };
  }

  const offeredTo = (r: CallRouting | null) => (r?.state === 'offered' ? r.offeredTo : r?.state);

  it('when a call opens, then it is offered to one available agent of its assignment with the offer deadline', async () => {
    const { agent, published, open } = await setup();
    await agent(1);
    await agent(2);
    await agent(3, [2]); // another assignment
    const routing = await open('c1', 1, 20);
    expect(routing).toEqual({ callId: 'c1', companyId, assignmentId: assignment[1], state: 'offered', offeredTo: 'agent-1', expiresAt: 1_000_000 + 20_000, offerMs: 20_000 });
    expect(published).toEqual([routing]);
  });

  it('when the offer times out, then the call moves to the next agent, and after everyone it is open to all', async () => {
    const { rr, agent, timers, open } = await setup();
    await agent(1);
    await agent(2);
    await open('c1', 1, 20);
    timers.advance(19_999);
    expect(await rr.moveDue()).toBe(0);
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-1');
    timers.advance(1);
    expect(await rr.moveDue()).toBe(1);
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-2');
    expect((await rr.routing('c1'))?.expiresAt).toBe(timers.now() + 20_000);
    timers.advance(20_000);
    await rr.moveDue();
    expect(await rr.routing('c1')).toMatchObject({ state: 'open', offeredTo: null, expiresAt: null, offerMs: null });
    timers.advance(60_000); // open stays open: nobody is offered it twice
    await rr.moveDue();
    expect((await rr.routing('c1'))?.state).toBe('open');
  });

  it('when the offered agent declines, then the next one is offered at once; another agent cannot decline for it', async () => {
    const { rr, agent, user, open } = await setup();
    await agent(1);
    await agent(2);
    await open('c1');
    expect(await rr.decline('c1', user(2))).toBe('notOffered');
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-1');
    expect(await rr.decline('c1', user(1))).toBe('moved');
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-2');
    expect(await rr.decline('nope', user(1))).toBe('unknown');
  });

  it('when agents are away, busy or offline, then they are skipped; with nobody available the call is open', async () => {
    const { rr, agent, user, open } = await setup();
    await agent(1);
    await agent(2);
    const close3 = await agent(3);
    await rr.setAvailability(user(1), { away: true, busy: false });
    await rr.setAvailability(user(2), { away: false, busy: true });
    await close3();
    expect((await open('c1')).state).toBe('open');
    await rr.setAvailability(user(2), { away: false, busy: false });
    expect(offeredTo(await open('c2'))).toBe('agent-2');
    expect((await rr.availableAgents(companyId)).map((a) => a.xmppUsername)).toEqual(['agent-2']);
  });

  it('when the offered agent goes away or closes its console, then the call moves on immediately', async () => {
    const { rr, agent, user, open } = await setup();
    const close1 = await agent(1);
    await agent(2);
    await agent(3);
    await open('c1');
    await rr.setAvailability(user(1), { away: true, busy: false });
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-2');
    await open('c2');
    expect(offeredTo(await rr.routing('c2'))).toBe('agent-3');
    await close1();
    // agent 1 left; c1 and c2 stay with their agents
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-2');
  });

  it('when the offered agent closes its only console, then its offer moves to the next agent', async () => {
    const { rr, agent, open } = await setup();
    const close1 = await agent(1);
    await agent(2);
    await open('c1');
    await close1();
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-2');
  });

  it('when one agent has two consoles open and closes one, then it still gets offers', async () => {
    const { agent, open } = await setup();
    const first = await agent(1);
    await agent(1);
    await first();
    expect(offeredTo(await open('c1'))).toBe('agent-1');
  });

  it('when calls follow each other, then the first offer goes round the agents in turn', async () => {
    const { agent, open } = await setup();
    await agent(3);
    await agent(1);
    await agent(2);
    const first = [];
    for (const id of ['a', 'b', 'c', 'd']) first.push(offeredTo(await open(id)));
    expect(first).toEqual(['agent-1', 'agent-2', 'agent-3', 'agent-1']);
  });

  it('when the call is answered or ended, then it leaves the routing and its deadline never moves it', async () => {
    const { rr, agent, timers, published, open } = await setup();
    await agent(1);
    await agent(2);
    await open('c1', 1, 5);
    await rr.callClosed('c1');
    timers.advance(60_000);
    expect(await rr.moveDue()).toBe(0);
    expect(await rr.routing('c1')).toBeNull();
    expect(published).toHaveLength(1);
  });

  it("when agents of another company serve an assignment with the same id, then they are never offered this company's calls", async () => {
    const { agent, open } = await setup();
    await agent(9, [1], otherCompany);
    expect((await open('c1')).state).toBe('open');
  });

  it('when an agent said away before its event stream opened, then it is still skipped once connected', async () => {
    const { rr, agent, user, open } = await setup();
    await agent(1);
    await agent(2);
    await rr.setAvailability(user(1), { away: true, busy: false });
    expect(offeredTo(await open('c1'))).toBe('agent-2');
  });

  it('when an instance stops beating, then after the presence time its agents are gone and their offers move on', async () => {
    const { rr, agent, timers, open, published } = await setup();
    const other = new RoundRobin({ db, instanceId: 'unit-b', timers, publish: (r) => published.push(r) });
    await agent(1);
    await agent(2, [1], companyId, other); // agent 2's stream is on the other instance
    await open('x'); // the rotation starts at agent 1
    expect(offeredTo(await open('c1'))).toBe('agent-2');
    // the other instance dies: it stops beating; this one goes on
    timers.advance(PRESENCE_TTL_MS - 1);
    await rr.beat();
    expect((await rr.availableAgents(companyId)).map((a) => a.xmppUsername)).toEqual(['agent-1', 'agent-2']);
    timers.advance(2);
    await rr.beat();
    expect((await rr.availableAgents(companyId)).map((a) => a.xmppUsername)).toEqual(['agent-1']);
    await rr.moveDue();
    expect(offeredTo(await rr.routing('c1'))).toBe('agent-1');
  });

  it('when a call was ended without closing its routing (another path, or while no server ran), then the next beat drops it', async () => {
    const { rr, agent, open } = await setup();
    await agent(1);
    await open('ended-call');
    await db.kysely
      .insertInto('call_reports')
      .values({ company_id: companyId, call_id: 'ended-call', guest_username: 'rr-guest', source: 'site', status: 'ok', created_at: 0, call_ended_at: 1 })
      .execute();
    await rr.beat();
    expect(await rr.routing('ended-call')).toBeNull();
  });
});
