/**
 * POST /api/ejabberd-events: ejabberd's mod_lobby_events posts guests' room and session events with the
 * shared secret; the server follows the room a guest left and closes its call, and destroys the rooms of a
 * guest whose session ended for good. Nobody without the secret is heard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../../helpers/context.ts';
import type { TestContext } from '../../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../../helpers/fixtures.ts';

describe('POST /api/ejabberd-events', () => {
  let t: TestContext;
  const secret = () => bearer(t.app.services.config.ejabberdEventsSecret);
  const post = (payload: object, headers: Record<string, string> = secret()) => t.app.inject({ method: 'POST', url: '/api/ejabberd-events', headers, payload });
  const report = (callId: string) => t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => t.close());

  it('when the caller has no secret or a wrong one, then 401 and nothing is heard', async () => {
    const guest = await registerGuest(t.app);
    const events = { events: [{ type: 'offline', user: guest.username }] };
    expect((await post(events, {})).statusCode).toBe(401);
    expect((await post(events, bearer('not-the-secret'))).statusCode).toBe(401);
    // a guest's own token is not ejabberd's
    const res = await post(events, bearer(guest.access_token));
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toMatch(/^authorization/);
  });

  it('when an event is malformed, then 400 naming the field', async () => {
    const res = await post({ events: [{ type: 'leave', user: 'g1' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/events/);
    expect((await post({ events: [{ type: 'teleport', user: 'g1' }] })).statusCode).toBe(400);
  });

  it('when ejabberd says a waiting guest left its room, then its call is closed 20 s later', async () => {
    const guest = await registerGuest(t.app);
    const call = await openCall(t.app, guest);
    const room = (await report(call.callId)).room_jid ?? '';
    t.ejabberd.occupants.set(room.split('@')[0]!, ['agent-18@lobby.local/console']);
    t.clock.now += 6000;
    const leftAt = t.clock.now;

    const res = await post({ events: [{ type: 'leave', room: room.split('@')[0], user: guest.username }] });
    expect(res.statusCode, res.body).toBe(204);
    await t.app.services.vanishedGuests.runOnce();
    t.clock.now += 21_000;
    expect(await t.app.services.vanishedGuests.runOnce()).toContain(call.callId);

    expect(Number((await report(call.callId)).guest_exit_at)).toBe(leftAt);
  });

  it('when ejabberd says a guest\u2019s session ended and it stays away two minutes, then its rooms are destroyed', async () => {
    const guest = await registerGuest(t.app);
    t.clock.now += 1000;
    const res = await post({ events: [{ type: 'online', user: guest.username }, { type: 'offline', user: guest.username }] });
    expect(res.statusCode, res.body).toBe(204);
    t.clock.now += 121_000;

    const destroyed = await t.app.services.guestDepartures.runOnce();

    expect(destroyed.sort()).toEqual(guest.guestRooms.map((r) => r.room).sort());
    for (const room of guest.guestRooms) expect(t.ejabberd.rooms.has(room.room.split('@')[0]!)).toBe(false);
  });
});
