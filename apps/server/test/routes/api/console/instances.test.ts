import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgEventBus } from '../../../../src/services/pgEventBus.ts';
import { PRESENCE_TTL_MS } from '../../../../src/services/roundRobin.ts';
import { DEMO } from '../../../helpers/context.ts';
import { addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';
import { createInstances } from '../../../helpers/instances.ts';
import type { Instance, Instances } from '../../../helpers/instances.ts';
import { connect } from '../../../helpers/sse.ts';
import type { SseClient } from '../../../helpers/sse.ts';

type Routing = { callId: string; state: string; offeredTo: string | null };

/** Waits until `check` holds (the other instance hears of a change through PostgreSQL, a moment later). */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Two server instances on one PostgreSQL (docs/architecture.md "Shared state"): what one instance
 * learns, the other acts on. PostgreSQL only: with SQLite there is one instance.
 */
describe.skipIf(!process.env.LOBBY_TEST_PG_URL)('two server instances on one PostgreSQL', () => {
  let s: Instances;
  let a: Instance;
  let b: Instance;
  let salesId: number;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    s = await createInstances(2);
    [a, b] = s.instances as [Instance, Instance];
    salesId = (await registerGuest(a.app)).guestRooms[0]?.assignmentId ?? 0;
  });
  afterAll(async () => {
    for (const c of streams) c.close();
    await s.close();
  });

  /** an agent of the sales assignment whose console's event stream is open on `on` */
  async function agentOn(on: Instance) {
    const u = await addUser(s.db, { companyId: DEMO.companyId, password: 'two-instances-pw', assignmentIds: [salesId] });
    const cookie = await login(on.app, u.email, u.password);
    const xmpp = (await s.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', u.id).executeTakeFirstOrThrow()).xmpp_username;
    const events = await connect(on.port, cookie);
    streams.push(events);
    return { ...u, cookie, xmpp, events };
  }
  const routings = (c: SseClient, callId: string) => c.events.filter((e) => e.event === 'callRouting').map((e) => e.data as Routing).filter((r) => r.callId === callId);
  const lastRouting = (c: SseClient, callId: string) => routings(c, callId).at(-1);
  /** every agent's stream closed and every call out of the routing: each test starts from nobody present */
  async function reset() {
    for (const c of streams.splice(0)) c.close();
    await until(async () => (await s.db.kysely.selectFrom('agent_presence').select('user_id').execute()).length === 0, 'the streams to close');
    await s.db.kysely.deleteFrom('call_routing').execute();
    await s.db.kysely.deleteFrom('agent_availability').execute();
  }

  it('when a call opens on instance A, then a console whose event stream is on instance B hears of it', async () => {
    const onB = await agentOn(b);
    const g = await registerGuest(a.app);
    const call = await openCall(a.app, g, { assignment_id: salesId });
    await until(() => onB.events.events.some((e) => e.event === 'callOpened' && (e.data as { callId: string }).callId === call.callId), 'callOpened on B');
    await until(() => lastRouting(onB.events, call.callId)?.offeredTo === onB.xmpp, 'the offer to the agent on B');
    // delivered once on B, though A published it: nobody hears an event twice
    await new Promise((r) => setTimeout(r, 200));
    expect(onB.events.events.filter((e) => e.event === 'callOpened' && (e.data as { callId: string }).callId === call.callId)).toHaveLength(1);
  });

  it('when two agents have their streams on different instances, then each call is offered once to each in turn, and a decline sent to the other instance moves it', async () => {
    await reset();
    const onA = await agentOn(a);
    const onB = await agentOn(b);
    const guests: RegisteredGuest[] = [];
    const calls: string[] = [];
    for (let i = 0; i < 3; i++) {
      guests.push(await registerGuest(a.app));
      // calls opened on either instance share one rotation
      const at = i % 2 === 0 ? a : b;
      calls.push((await openCall(at.app, guests[i] as RegisteredGuest, { assignment_id: salesId })).callId);
    }
    const firstOffers = [];
    for (const callId of calls) {
      await until(() => lastRouting(onA.events, callId) !== undefined && lastRouting(onB.events, callId) !== undefined, `the routing of ${callId} on both`);
      firstOffers.push(lastRouting(onA.events, callId)?.offeredTo);
      expect(lastRouting(onB.events, callId)).toEqual(lastRouting(onA.events, callId));
    }
    const [first, second] = onA.id < onB.id ? [onA, onB] : [onB, onA];
    expect(firstOffers).toEqual([first.xmpp, second.xmpp, first.xmpp]);

    // the first call: its agent declines through the instance that does not hold its stream
    const callId = calls[0] as string;
    const otherInstance = first === onA ? b : a;
    const declined = await otherInstance.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/decline`, headers: { cookie: first.cookie } });
    expect(declined.statusCode).toBe(200);
    expect(declined.json<{ data: Routing }>().data).toMatchObject({ state: 'offered', offeredTo: second.xmpp });
    await until(() => lastRouting(first.events, callId)?.offeredTo === second.xmpp, 'the moved offer on the first agent');
    await until(() => lastRouting(second.events, callId)?.offeredTo === second.xmpp, 'the moved offer on the second agent');
    // the second declines too: every agent was offered it once, so it is open to all
    const again = await a.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/decline`, headers: { cookie: second.cookie } });
    expect(again.json<{ data: Routing }>().data).toMatchObject({ state: 'open', offeredTo: null });
    const offered = routings(first.events, callId).filter((r) => r.state === 'offered').map((r) => r.offeredTo);
    expect(offered).toEqual([first.xmpp, second.xmpp]);
  });

  it('when an agent says away on the other instance, then its offer moves and it is no longer a transfer target anywhere', async () => {
    await reset();
    const onA = await agentOn(a);
    const onB = await agentOn(b);
    const targets = async (on: Instance, cookie: string) =>
      (await on.app.inject({ method: 'GET', url: '/api/console/transfer-targets', headers: { cookie } })).json<{ data: { agents: Array<{ id: number }> } }>().data.agents.map((x) => x.id);
    // every instance lists the agents of every instance
    expect(await targets(a, onA.cookie)).toContain(onB.id);
    expect(await targets(b, onB.cookie)).toContain(onA.id);
    const res = await a.app.inject({ method: 'POST', url: '/api/console/availability', headers: { cookie: onB.cookie }, payload: { availability: 'away' } });
    expect(res.statusCode).toBe(200);
    expect(await targets(b, onA.cookie)).not.toContain(onB.id);
    const call = await openCall(b.app, await registerGuest(b.app), { assignment_id: salesId });
    await until(() => lastRouting(onB.events, call.callId) !== undefined, 'the routing on B');
    expect(lastRouting(onB.events, call.callId)?.offeredTo).toBe(onA.xmpp);
  });

  it('when an offer runs out and both instances poll at once, then it moves exactly once', async () => {
    await reset();
    const onA = await agentOn(a);
    const onB = await agentOn(b);
    const call = await openCall(a.app, await registerGuest(a.app), { assignment_id: salesId });
    await until(() => lastRouting(onB.events, call.callId) !== undefined, 'the offer');
    const offer = lastRouting(onA.events, call.callId);
    // the demo company's offer is 20 s; both instances beat meanwhile, as they do every 5 s
    for (const i of [a, b]) i.clock.now += 20_000;
    for (const i of [a, b]) await i.app.services.roundRobin.beat();
    const moved = await Promise.all([a.app.services.roundRobin.moveDue(), b.app.services.roundRobin.moveDue()]);
    expect(moved[0] + moved[1]).toBe(1);
    const next = offer?.offeredTo === onA.xmpp ? onB.xmpp : onA.xmpp;
    await until(() => lastRouting(onA.events, call.callId)?.offeredTo === next && lastRouting(onB.events, call.callId)?.offeredTo === next, 'the moved offer');
    await new Promise((r) => setTimeout(r, 200));
    for (const c of [onA.events, onB.events]) expect(routings(c, call.callId)).toHaveLength(2);
  });

  it('when an instance stops heartbeating, then its agents are gone for the others: no transfer target, no offer; once it beats again they are back', async () => {
    await reset();
    const onA = await agentOn(a);
    const onB = await agentOn(b);
    const targets = async () =>
      (await a.app.inject({ method: 'GET', url: '/api/console/transfer-targets', headers: { cookie: onA.cookie } })).json<{ data: { agents: Array<{ id: number }> } }>().data.agents.map((x) => x.id);
    expect(await targets()).toContain(onB.id);
    // B hangs: its clock (and so every beat it writes) stays where it is while A's goes on
    const frozen = b.clock.now;
    a.clock.now += PRESENCE_TTL_MS + 1000;
    await a.app.services.roundRobin.beat();
    expect(await targets()).not.toContain(onB.id);
    const call = await openCall(a.app, await registerGuest(a.app), { assignment_id: salesId });
    expect((await a.app.services.roundRobin.routing(call.callId))?.offeredTo).toBe(onA.xmpp);
    // B comes back: its beat writes its agents' presence again
    expect(frozen).toBeLessThan(a.clock.now);
    b.clock.now = a.clock.now;
    await b.app.services.roundRobin.beat();
    expect(await targets()).toContain(onB.id);
  });

  it('when an instance stops (closed), then its agents leave round robin at once and their offers move on', async () => {
    const pair = await createInstances(2);
    try {
      const [pa, pb] = pair.instances as [Instance, Instance];
      const sales = (await registerGuest(pa.app)).guestRooms[0]?.assignmentId ?? 0;
      const agentOf = async (on: Instance) => {
        const u = await addUser(pair.db, { companyId: DEMO.companyId, password: 'closing-pw', assignmentIds: [sales] });
        const cookie = await login(on.app, u.email, u.password);
        streams.push(await connect(on.port, cookie));
        const xmpp = (await pair.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', u.id).executeTakeFirstOrThrow()).xmpp_username;
        return { ...u, cookie, xmpp };
      };
      const onA = await agentOf(pa);
      const onB = await agentOf(pb);
      // A's agent is away: the call goes to B's
      await pa.app.inject({ method: 'POST', url: '/api/console/availability', headers: { cookie: onA.cookie }, payload: { availability: 'away' } });
      const call = await openCall(pa.app, await registerGuest(pa.app), { assignment_id: sales });
      expect((await pa.app.services.roundRobin.routing(call.callId))?.offeredTo).toBe(onB.xmpp);
      await pa.app.inject({ method: 'POST', url: '/api/console/availability', headers: { cookie: onA.cookie }, payload: { availability: 'available' } });

      await pb.app.close();
      const present = await pair.db.kysely.selectFrom('agent_presence').select('user_id').execute();
      expect(present.map((p) => p.user_id)).toEqual([onA.id]);
      expect(await pa.app.services.roundRobin.routing(call.callId)).toMatchObject({ state: 'offered', offeredTo: onA.xmpp });
    } finally {
      await pair.close();
    }
  });

  it('when the company changes on instance A, then instance B drops its cached snapshot of it', async () => {
    const cached = await createInstances(2, { companyCacheMs: 60_000 });
    try {
      const [ca, cb] = cached.instances as [Instance, Instance];
      expect((await cb.app.services.companySnapshots.get(DEMO.companyId))?.company.name).toBe('Lobby Demo');
      const admin = await login(ca.app, DEMO.adminEmail, DEMO.adminPassword);
      const res = await ca.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { name: 'Renamed on A' } });
      expect(res.statusCode).toBe(200);
      await until(async () => (await cb.app.services.companySnapshots.get(DEMO.companyId))?.company.name === 'Renamed on A', "B's snapshot to follow");
    } finally {
      await cached.close();
    }
  });

  it('when an event is larger than a notification can carry, then the other instance still gets it whole', async () => {
    await reset();
    const onB = await agentOn(b);
    const fromName = 'N'.repeat(9000);
    a.app.services.events.publish('callTransfer', {
      companyId: DEMO.companyId,
      id: 4242,
      callId: 'large--event',
      room: 'room@conference.lobby.test',
      guestUsername: 'guest-large',
      fromName,
      fromJid: 'someone@lobby.test',
      toUserId: onB.id,
      toAssignmentId: null,
    });
    await until(() => onB.events.events.some((e) => e.event === 'callTransfer'), 'the large transfer on B');
    expect((onB.events.events.find((e) => e.event === 'callTransfer')?.data as { fromName: string }).fromName).toBe(fromName);
  });

  it("when an instance's listening connection is killed, then it listens again, tells its consoles to resync, and hears the others again", async () => {
    await reset();
    const onA = await agentOn(a);
    const bus = a.app.services.events as PgEventBus;
    const pid = bus.listenerPid();
    expect(pid).toBeTypeOf('number');
    const admin = new pg.Client({ connectionString: process.env.LOBBY_TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await until(() => onA.events.events.some((e) => e.event === 'resync'), 'the resync event on A');
    expect(bus.listenerPid()).not.toBe(pid);
    const call = await openCall(b.app, await registerGuest(b.app), { assignment_id: salesId });
    await until(() => onA.events.events.some((e) => e.event === 'callOpened' && (e.data as { callId: string }).callId === call.callId), 'a call opened on B, heard on A');
  });
});
