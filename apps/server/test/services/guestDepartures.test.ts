/**
 * A guest's rooms go once it has left for good (its XMPP session ended, no open call, not back within two
 * minutes), not hours later; a guest that comes back later with its guestId gets them again. A fake clock
 * and a fake ejabberd drive it, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuestDepartures } from '../../src/services/guestDepartures.ts';
import { createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { openCall, randomGuestId, registerGuest } from '../helpers/fixtures.ts';

const GRACE_MS = 120_000;

describe.each(dialects())('the departures of guests (%s)', (dialect) => {
  let t: TestContext;
  const departures = () =>
    createGuestDepartures({ db: t.db.kysely, guests: t.app.repos.guests, ejabberd: t.ejabberd, now: () => t.clock.now, openMs: 4 * 3600_000, graceMs: GRACE_MS });
  const nameOf = (roomJid: string) => roomJid.split('@')[0]!;
  const stored = async (username: string) => (await t.app.repos.guests.rooms(username)).map((r) => r.room);

  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest\u2019s session ends and it does not come back within two minutes, then its rooms are destroyed and forgotten', async () => {
    const job = departures();
    const guest = await registerGuest(t.app);
    const rooms = guest.guestRooms.map((r) => r.room);
    expect(rooms.length).toBeGreaterThan(0);
    for (const room of rooms) expect(t.ejabberd.rooms.has(nameOf(room))).toBe(true);

    t.clock.now += 60_000;
    job.offline(guest.username);
    t.clock.now += GRACE_MS - 5000;
    expect(await job.runOnce()).toEqual([]);
    t.clock.now += 10_000;
    expect((await job.runOnce()).sort()).toEqual([...rooms].sort());

    for (const room of rooms) expect(t.ejabberd.rooms.has(nameOf(room))).toBe(false);
    expect(await stored(guest.username)).toEqual([]);
  });

  it('when the guest comes back within the grace (a reload, a network blip), or still has a session, or an open call, or ejabberd cannot say, then its rooms stay', async () => {
    const job = departures();
    const reloaded = await registerGuest(t.app);
    const twoTabs = await registerGuest(t.app);
    const calling = await registerGuest(t.app);
    const unsure = await registerGuest(t.app);
    await openCall(t.app, calling);
    t.clock.now += 60_000;
    for (const g of [reloaded, twoTabs, calling, unsure]) job.offline(g.username);
    job.online(reloaded.username);
    // its other tab's session is still open (the event of the first tab's end came alone)
    t.ejabberd.sessions.add(twoTabs.username);
    t.clock.now += GRACE_MS + 1000;
    // the unsure guest's answer: ejabberd is down as the job asks
    const guestOnline = t.ejabberd.guestOnline.bind(t.ejabberd);
    t.ejabberd.guestOnline = (username) => (username === unsure.username ? Promise.resolve(null) : guestOnline(username));

    const destroyed = await job.runOnce();
    t.ejabberd.guestOnline = guestOnline;

    expect(destroyed).toEqual([]);
    for (const g of [reloaded, twoTabs, calling, unsure]) expect(await stored(g.username)).toHaveLength(g.guestRooms.length);
    // asked again once ejabberd answers
    expect((await job.runOnce()).sort()).toEqual(unsure.guestRooms.map((r) => r.room).sort());
  });

  it('when a guest whose rooms went for good comes back with its guestId, then guest auth provisions its rooms again and its call opens in them', async () => {
    const job = departures();
    const guestId = randomGuestId();
    const guest = await registerGuest(t.app, { guestId });
    t.clock.now += 60_000;
    job.offline(guest.username);
    t.clock.now += GRACE_MS + 1000;
    await job.runOnce();
    for (const room of guest.guestRooms) expect(t.ejabberd.rooms.has(nameOf(room.room))).toBe(false);

    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId } });
    expect(res.statusCode, res.body).toBe(200);
    const back = res.json<{ data: { access_token: string; guestRooms: Array<{ room: string }> } }>().data;

    expect(back.guestRooms.map((r) => r.room).sort()).toEqual(guest.guestRooms.map((r) => r.room).sort());
    for (const room of back.guestRooms) expect(t.ejabberd.rooms.has(nameOf(room.room))).toBe(true);
    const call = await openCall(t.app, { ...guest, access_token: back.access_token });
    const report = await t.db.kysely.selectFrom('call_reports').select('room_jid').where('call_id', '=', call.callId).executeTakeFirstOrThrow();
    expect(back.guestRooms.map((r) => r.room)).toContain(report.room_jid);
  });

  it('when a guest registers again on a new page after its session ended, then the rooms provisioned since stay', async () => {
    const job = departures();
    const guestId = randomGuestId();
    const guest = await registerGuest(t.app, { guestId });
    t.clock.now += 60_000;
    job.offline(guest.username);
    t.clock.now += 30_000;
    // a new page: registration with the same browser id provisions the rooms again (its session not yet open)
    const again = await registerGuest(t.app, { guestId });
    expect(again.username).toBe(guest.username);
    t.clock.now += GRACE_MS;

    expect(await job.runOnce()).toEqual([]);
    expect(await stored(guest.username)).toHaveLength(guest.guestRooms.length);
    for (const room of guest.guestRooms) expect(t.ejabberd.rooms.has(nameOf(room.room))).toBe(true);
  });
});
