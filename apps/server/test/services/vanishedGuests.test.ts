/**
 * A guest whose browser closed or crashed is gone from its XMPP room at once; ejabberd tells the server
 * (a leave event), the server confirms it with that room's occupants and closes the call's report, so the
 * reports stop counting it "Waiting or open". A lost event is caught by the backstop, one listing of every
 * guest in a room a minute. A fake clock and a fake ejabberd drive it, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVanishedGuestSweep } from '../../src/services/vanishedGuests.ts';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { bearer, login, openCall, registerGuest, resumeAfterHold, type RegisteredGuest } from '../helpers/fixtures.ts';

describe.each(dialects())('the vanished-guest sweep (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  /** the calls the sweep told were gone (the server closes them in round robin) */
  const goneCalls: string[] = [];
  const sweep = () =>
    createVanishedGuestSweep({ db: t.db.kysely, ejabberd: t.ejabberd, now: () => t.clock.now, openMs: 4 * 3600_000, graceMs: 5000, absentMs: 20_000, rejoinGraceMs: 30_000, callGone: (id) => void goneCalls.push(id) });
  const report = (callId: string) => t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();
  const roomOf = async (callId: string) => ((await report(callId)).room_jid ?? '').split('@')[0] ?? '';
  /** the reports' totals of one UTC day: the day the call was made, even when the clock has passed midnight since */
  const totals = async (of: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=${of}&to=${of}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { totals: { calls: number; answered: number; abandoned: number } } }>().data.totals;
  };
  const jidOf = (g: RegisteredGuest) => `${g.username}@guest.lobby.local/web`;
  const roomJidOf = async (callId: string) => (await report(callId)).room_jid ?? '';
  /** a guest waiting in its room, its call past the grace and checked once (nothing to close) */
  const waitingInRoom = async (job: ReturnType<typeof sweep>) => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const room = await roomOf(call.callId);
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    t.clock.now += 6000;
    expect(await job.runOnce()).toEqual([]);
    return { g, call, room };
  };
  /** the sweep runs every 3 s: `ms` of it on the fake clock; the call ids it stamped meanwhile */
  const runFor = async (job: ReturnType<typeof sweep>, ms: number) => {
    const stamped: string[] = [];
    for (let elapsed = 0; elapsed < ms; elapsed += 3000) {
      t.clock.now += 3000;
      stamped.push(...(await job.runOnce()));
    }
    return stamped;
  };

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  it('when a waiting guest is gone from its room, then its call is closed and counted abandoned, not waiting', async () => {
    const gone = await registerGuest(t.app);
    const staying = await registerGuest(t.app);
    const a = await openCall(t.app, gone);
    const b = await openCall(t.app, staying);
    const callsDay = new Date(Number((await report(a.callId)).created_at)).toISOString().slice(0, 10);
    t.ejabberd.occupants.set(await roomOf(a.callId), ['agent-18@lobby.local/console']);
    t.ejabberd.occupants.set(await roomOf(b.callId), [jidOf(staying), 'agent-18@lobby.local/console']);
    const before = await totals(callsDay);

    // within the grace time, nothing is decided (the guest joins its room before it calls)
    const job = sweep();
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 6000;
    const missingFrom = t.clock.now;
    // ejabberd says the guest left; missing, but for less than 20 s: it may be reconnecting
    job.left(await roomJidOf(a.callId));
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 19_000;
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 1000;
    expect(goneCalls).toEqual([]);
    expect(await job.runOnce()).toEqual([a.callId]);
    // round robin lets it go: nobody is offered a call whose guest is gone
    expect(goneCalls).toEqual([a.callId]);

    // the exit is when it was first seen missing
    expect(Number((await report(a.callId)).guest_exit_at)).toBe(missingFrom);
    expect((await report(b.callId)).guest_exit_at).toBeNull();
    const after = await totals(callsDay);
    expect(after.abandoned - before.abandoned).toBe(1);
    expect(after.calls).toBe(before.calls);
  });

  it('when ejabberd cannot say (room unknown, down), or the call ended or was held and resumed, then the sweep leaves it', async () => {
    const unknown = await openCall(t.app, await registerGuest(t.app));
    const g = await registerGuest(t.app);
    const held = await openCall(t.app, g);
    const resumed = await resumeAfterHold(t.app, g, held.callId);
    t.ejabberd.occupants.set(await roomOf(held.callId), []);
    const endedGuest = await registerGuest(t.app);
    const ended = await openCall(t.app, endedGuest);
    const end = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(endedGuest.access_token), payload: { call_id: ended.callId, call_ended_timestamp: true } });
    expect(end.statusCode).toBe(200);
    t.ejabberd.occupants.set(await roomOf(ended.callId), []);
    t.clock.now += 6000;
    const job = sweep();
    await job.runOnce();
    t.clock.now += 20_000;

    const stamped = await job.runOnce();

    expect(stamped).not.toContain(unknown.callId);
    expect(stamped).not.toContain(held.callId);
    expect(stamped).not.toContain(ended.callId);
    // the resumed call is the open one: the guest is gone, so it is closed
    expect(stamped).toContain(resumed);
    const down = await openCall(t.app, await registerGuest(t.app));
    t.ejabberd.occupants.set(await roomOf(down.callId), []);
    t.ejabberd.up = false;
    t.clock.now += 6000;
    expect(await job.runOnce()).not.toContain(down.callId);
    t.clock.now += 20_000;
    expect(await job.runOnce()).not.toContain(down.callId);
    t.ejabberd.up = true;
  });

  it('when ejabberd restarts and the guests take a few seconds to reconnect, then no call is closed: the drop is not the guest leaving', async () => {
    const job = sweep();
    const { g, call: waiting, room } = await waitingInRoom(job);

    // the guest's stream drops and is slow to come back: missing for 15 s, then ejabberd restarts
    t.ejabberd.occupants.set(room, []);
    job.left(await roomJidOf(waiting.callId));
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 15_000;
    expect(await job.runOnce()).toEqual([]);
    t.ejabberd.up = false;
    t.clock.now += 3000;
    expect(await job.runOnce()).toEqual([]);
    // ejabberd is back with empty rooms; the guest reconnects within its 10 s backoff (its join event is
    // lost: the server hears of it only by asking)
    t.ejabberd.up = true;
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 12_000;
    expect(await job.runOnce()).toEqual([]);
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    t.clock.now += 3000;
    expect(await job.runOnce()).toEqual([]);

    expect((await report(waiting.callId)).guest_exit_at).toBeNull();
    // and it is no longer followed
    const asked = t.ejabberd.askedRooms.length;
    await runFor(job, 30_000);
    expect(t.ejabberd.askedRooms.slice(asked)).not.toContain(room);
  });

  it('when a guest taken for gone is seen in its room again while its call is open, then its exit is taken back', async () => {
    const job = sweep();
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const room = await roomOf(call.callId);
    t.ejabberd.occupants.set(room, []);
    t.clock.now += 6000;
    job.left(await roomJidOf(call.callId));
    await job.runOnce();
    t.clock.now += 20_000;
    expect(await job.runOnce()).toContain(call.callId);
    expect((await report(call.callId)).guest_exit_at).not.toBeNull();

    // its network was out for longer than that, and it reconnected into its call: ejabberd says it joined
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    job.joined(await roomJidOf(call.callId));
    t.clock.now += 3000;
    await job.runOnce();

    expect((await report(call.callId)).guest_exit_at).toBeNull();
  });

  it('when a guest taken for gone is back but its join event was lost, then the backstop takes its exit back within a minute', async () => {
    const job = sweep();
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const room = await roomOf(call.callId);
    t.ejabberd.occupants.set(room, []);
    t.clock.now += 6000;
    job.left(await roomJidOf(call.callId));
    expect(await runFor(job, 24_000)).toContain(call.callId);

    t.ejabberd.occupants.set(room, [jidOf(g)]);
    await runFor(job, 60_000);

    expect((await report(call.callId)).guest_exit_at).toBeNull();
  });

  it('when guests wait and nothing happens, then ejabberd is asked once a minute, not about every room every few seconds', async () => {
    const job = sweep();
    const guests = await Promise.all(Array.from({ length: 12 }, () => registerGuest(t.app)));
    const calls = [];
    const rooms: string[] = [];
    for (const g of guests) {
      const call = await openCall(t.app, g);
      rooms.push(await roomOf(call.callId));
      t.ejabberd.occupants.set(rooms.at(-1)!, [jidOf(g), 'agent-18@lobby.local/console']);
      calls.push(call);
    }
    const before = { ...t.ejabberd.queries };
    const askedBefore = t.ejabberd.askedRooms.length;

    // ten minutes of a quiet queue, the sweep every 3 s (200 runs)
    expect(await runFor(job, 10 * 60_000)).toEqual([]);

    // (rooms of earlier tests' calls that ejabberd does not know are looked at once a minute)
    expect(t.ejabberd.askedRooms.slice(askedBefore).filter((room) => rooms.includes(room))).toEqual([]);
    expect(t.ejabberd.queries.roomOccupants - before.roomOccupants).toBeLessThanOrEqual(10 * 5);
    // the backstop: one listing of every room a minute, however many guests wait
    expect(t.ejabberd.queries.roomGuests - before.roomGuests).toBeGreaterThanOrEqual(9);
    expect(t.ejabberd.queries.roomGuests - before.roomGuests).toBeLessThanOrEqual(11);

    // one guest leaves: only its room is asked about, and its call is closed after 20 s of absence
    const leaving = calls[3]!;
    t.ejabberd.occupants.set(await roomOf(leaving.callId), ['agent-18@lobby.local/console']);
    const leftAt = t.clock.now;
    job.left(await roomJidOf(leaving.callId));
    const asked = t.ejabberd.askedRooms.length;
    const stamped = await runFor(job, 24_000);

    expect(stamped).toContain(leaving.callId);
    expect(Number((await report(leaving.callId)).guest_exit_at)).toBe(leftAt);
    // a question every 3 s about that one room, none about the others
    const askedNow = t.ejabberd.askedRooms.slice(asked).filter((room) => rooms.includes(room));
    expect(askedNow.length).toBeGreaterThan(0);
    expect(askedNow.length).toBeLessThanOrEqual(8);
    expect(new Set(askedNow)).toEqual(new Set([rooms[3]]));
    for (const other of calls.filter((c) => c !== leaving)) expect((await report(other.callId)).guest_exit_at).toBeNull();
  });

  it('when a leave is heard twice, by this instance and by another (ejabberd posted the batch again after a late answer), then the call is stamped once, from the first leave', async () => {
    const first = sweep();
    const second = sweep();
    const { call, room } = await waitingInRoom(first);
    const roomJid = await roomJidOf(call.callId);

    // the guest leaves; the batch is heard by this instance twice, then, 5 s on, by the other
    t.ejabberd.occupants.set(room, []);
    const missingFrom = t.clock.now;
    first.left(roomJid);
    first.left(roomJid);
    t.clock.now += 5000;
    second.left(roomJid);
    const stamped: string[] = [];
    for (let elapsed = 0; elapsed < 30_000; elapsed += 3000) {
      t.clock.now += 3000;
      stamped.push(...(await first.runOnce()), ...(await second.runOnce()));
    }

    // the first leave's count decided: the other instance's later stamp changes nothing
    expect(stamped).toContain(call.callId);
    expect(Number((await report(call.callId)).guest_exit_at)).toBe(missingFrom);
  });

  it('when a guest leaves and its event is lost (the server was restarting), then the backstop finds it and its call is closed within a minute and a half', async () => {
    const job = sweep();
    const { call, room } = await waitingInRoom(job);

    // gone without a word reaching the server
    t.ejabberd.occupants.set(room, []);
    const gone = t.clock.now;
    const stamped = await runFor(job, 90_000);

    expect(stamped).toContain(call.callId);
    const exit = Number((await report(call.callId)).guest_exit_at);
    // stamped when the backstop first saw it missing, within its minute
    expect(exit).toBeGreaterThan(gone);
    expect(exit - gone).toBeLessThanOrEqual(60_000);
  });

  it('when an ejabberd node is down (its rooms lost, their guests rejoining on another node), then no guest is stamped gone; once every node answers, only after the grace that covers the rejoin', async () => {
    const job = sweep();
    const { call, room } = await waitingInRoom(job);
    const everyNode = t.ejabberd.roomGuests.bind(t.ejabberd);
    try {
      // the node holding the guest's room dies: the guest is missing from it, and the listing of every
      // node cannot be made while the node does not answer
      t.ejabberd.occupants.set(room, []);
      job.left(await roomJidOf(call.callId));
      t.ejabberd.roomGuests = () => Promise.resolve(null);
      expect(await runFor(job, 60_000)).toEqual([]);

      // the node is back (or removed): still not within the grace, the guest may be on its way back
      t.ejabberd.roomGuests = everyNode;
      expect(await runFor(job, 27_000)).toEqual([]);
      expect((await report(call.callId)).guest_exit_at).toBeNull();
      // past it, a guest still missing is gone
      expect(await runFor(job, 6000)).toEqual([call.callId]);
    } finally {
      t.ejabberd.roomGuests = everyNode;
    }
  });
});
