/**
 * Each registration made rooms that were never destroyed. The janitor destroys a guest's room
 * once no credential for it is valid, no call in it is open and the guest is not in it; registering or
 * authenticating again provisions it anew. A fake clock and a fake ejabberd drive it, on SQLite and
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuestRoomJanitor } from '../../src/services/guestRoomJanitor.ts';
import { createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { openCall, randomGuestId, registerGuest } from '../helpers/fixtures.ts';

const KEEP_MS = 4 * 3600_000;

describe.each(dialects())('the guest-room janitor (%s)', (dialect) => {
  let t: TestContext;
  const janitor = () =>
    createGuestRoomJanitor({ db: t.db.kysely, guests: t.app.repos.guests, ejabberd: t.ejabberd, now: () => t.clock.now, keepMs: KEEP_MS });
  const nameOf = (roomJid: string) => roomJid.split('@')[0]!;
  const stored = async (username: string) => (await t.app.repos.guests.rooms(username)).map((r) => r.room);

  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest registered longer ago than a call stays open and is gone, then its rooms are destroyed and forgotten', async () => {
    const guest = await registerGuest(t.app);
    const rooms = guest.guestRooms.map((r) => r.room);
    expect(rooms.length).toBeGreaterThan(0);
    for (const room of rooms) t.ejabberd.occupants.set(nameOf(room), []);

    // within the time a credential for them may be valid, nothing goes
    t.clock.now += KEEP_MS - 60_000;
    expect(await janitor().runOnce()).not.toEqual(expect.arrayContaining(rooms));
    t.clock.now += 120_000;
    expect((await janitor().runOnce()).sort()).toEqual(expect.arrayContaining(rooms.sort()));

    for (const room of rooms) expect(t.ejabberd.rooms.has(nameOf(room))).toBe(false);
    expect(await stored(guest.username)).toEqual([]);
  });

  it('when the guest is still in its room, or a call in it is open, or ejabberd is down, then the room stays', async () => {
    const inRoom = await registerGuest(t.app);
    const calling = await registerGuest(t.app);
    // the call opens 90 min after registration (its token still valid) and is younger than KEEP_MS at the end
    t.clock.now += 90 * 60_000;
    const call = await openCall(t.app, calling);
    const callRoom = await t.db.kysely.selectFrom('call_reports').select('room_jid').where('call_id', '=', call.callId).executeTakeFirstOrThrow();
    for (const room of inRoom.guestRooms) t.ejabberd.occupants.set(nameOf(room.room), [`${inRoom.username}@guest.lobby.local/web`]);
    for (const room of calling.guestRooms) t.ejabberd.occupants.set(nameOf(room.room), []);
    t.clock.now += KEEP_MS - 30 * 60_000;

    t.ejabberd.up = false;
    expect(await janitor().runOnce()).toEqual([]);
    t.ejabberd.up = true;
    const destroyed = await janitor().runOnce();

    for (const room of inRoom.guestRooms) expect(destroyed).not.toContain(room.room);
    expect(destroyed).not.toContain(callRoom.room_jid);
    expect(await stored(inRoom.username)).toHaveLength(inRoom.guestRooms.length);
    expect(await stored(calling.username)).toContain(callRoom.room_jid);
  });

  it('when a guest whose rooms were destroyed authenticates again, then its rooms are provisioned again and kept', async () => {
    const guestId = randomGuestId();
    const guest = await registerGuest(t.app, { guestId });
    for (const room of guest.guestRooms) t.ejabberd.occupants.set(nameOf(room.room), []);
    t.clock.now += KEEP_MS + 60_000;
    await janitor().runOnce();
    expect(await stored(guest.username)).toEqual([]);

    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId } });
    expect(res.statusCode, res.body).toBe(200);
    const again = res.json<{ data: { guestRooms: Array<{ room: string }> } }>().data.guestRooms.map((r) => r.room);
    expect(again.sort()).toEqual(guest.guestRooms.map((r) => r.room).sort());
    for (const room of again) expect(t.ejabberd.rooms.has(nameOf(room))).toBe(true);
    // provisioned now: the next run keeps them
    expect(await janitor().runOnce()).not.toEqual(expect.arrayContaining(again));
    expect((await stored(guest.username)).sort()).toEqual(again.sort());
  });
});
