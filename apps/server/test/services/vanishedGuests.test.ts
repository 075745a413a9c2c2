/**
 * Issue 15 defect 9: a guest whose browser closed or crashed is gone from its XMPP room at once; the
 * server's sweep sees it there (ejabberd's occupants) and closes the call's report, so the reports stop
 * counting it "Waiting or open". A fake clock and a fake ejabberd drive it, on SQLite and PostgreSQL.
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
    createVanishedGuestSweep({ db: t.db.kysely, ejabberd: t.ejabberd, now: () => t.clock.now, openMs: 4 * 3600_000, graceMs: 5000, absentMs: 20_000, callGone: (id) => void goneCalls.push(id) });
  const report = (callId: string) => t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();
  const roomOf = async (callId: string) => ((await report(callId)).room_jid ?? '').split('@')[0] ?? '';
  /** the reports' totals of one UTC day: the day the call was made, even when the clock has passed midnight since */
  const totals = async (of: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=${of}&to=${of}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { totals: { calls: number; answered: number; abandoned: number } } }>().data.totals;
  };
  const jidOf = (g: RegisteredGuest) => `${g.username}@guest.lobby.local/web`;

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
    // missing, but for less than 20 s: it may be reconnecting
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
    const g = await registerGuest(t.app);
    const waiting = await openCall(t.app, g);
    const room = await roomOf(waiting.callId);
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    t.clock.now += 6000;
    expect(await job.runOnce()).toEqual([]);

    // the guest's stream drops and is slow to come back: missing for 15 s, then ejabberd restarts
    t.ejabberd.occupants.set(room, []);
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 15_000;
    expect(await job.runOnce()).toEqual([]);
    t.ejabberd.up = false;
    t.clock.now += 3000;
    expect(await job.runOnce()).toEqual([]);
    // ejabberd is back with empty rooms; the guest reconnects within its 10 s backoff
    t.ejabberd.up = true;
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 12_000;
    expect(await job.runOnce()).toEqual([]);
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    t.clock.now += 3000;
    expect(await job.runOnce()).toEqual([]);

    expect((await report(waiting.callId)).guest_exit_at).toBeNull();
  });

  it('when a guest taken for gone is seen in its room again while its call is open, then its exit is taken back', async () => {
    const job = sweep();
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const room = await roomOf(call.callId);
    t.ejabberd.occupants.set(room, []);
    t.clock.now += 6000;
    await job.runOnce();
    t.clock.now += 20_000;
    expect(await job.runOnce()).toContain(call.callId);
    expect((await report(call.callId)).guest_exit_at).not.toBeNull();

    // its network was out for longer than that, and it reconnected into its call
    t.ejabberd.occupants.set(room, [jidOf(g)]);
    t.clock.now += 3000;
    await job.runOnce();

    expect((await report(call.callId)).guest_exit_at).toBeNull();
  });
});
