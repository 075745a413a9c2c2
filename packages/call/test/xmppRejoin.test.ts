/**
 * The engines' side of an XMPP reconnection (XmppSession reconnects by itself and says
 * 'reconnected'; test/xmppReconnect.test.ts): the guest joins its room again and re-announces its presence,
 * the agent joins its rooms again and rebuilds its queue, a call's media goes on meanwhile. On the fakes
 * (test/helpers/fakes.ts): `world.xmpp.restart()` is ejabberd restarting, `cut()` one stream dropping,
 * `back()` the new streams.
 */
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ROOM, FakeWorld, deferred, openCall, settle, type FakeSignalling } from './helpers/fakes.ts';
import { agentOnline, guestWaiting, inCall } from './helpers/participants.ts';

const AGENT1 = 'agent1@lobby.test';

const sessionOf = (world: FakeWorld, jid: string): FakeSignalling => world.xmpp.sessions.find((s) => s.jid === jid)!;

describe('after an XMPP reconnection', () => {
  it('when ejabberd restarts while the guest waits, then the guest rejoins with OpenCall and the agent, rejoining its rooms, lists it again and answers', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const callId = guest.snapshot.callId!;
    const { agent } = await agentOnline(world, 'agent1');
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);

    await world.xmpp.restart();
    await settle();
    expect(guest.snapshot.status.connection.xmpp).toBe(false);
    expect(agent.snapshot.phase).toBe('offline');
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();

    world.xmpp.back();
    await settle();

    // the guest is in its room again, announcing the same call as before the drop
    expect(guest.snapshot.status.connection.xmpp).toBe(true);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`OpenCall||${callId}`);
    expect(guest.snapshot.phase).toBe('waiting');
    // the agent is back in the room, its queue rebuilt from the room's presence
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'agent1')).toBe('');
    expect(agent.snapshot.phase).toBe('idle');
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);

    await agent.answer(callId);
    await settle();
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${callId}`);
  });

  it('when the agent reconnects before the guest, then the queue fills as the guest comes back, and a guest that left meanwhile is not listed', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const callId = guest.snapshot.callId!;
    const { agent } = await agentOnline(world, 'agent1');
    await world.xmpp.restart();
    await settle();

    world.xmpp.back([sessionOf(world, AGENT1)]);
    await settle();
    expect(agent.snapshot.phase).toBe('idle');
    // the stale OpenCall from before the restart is gone: the room says nobody waits yet
    expect(agent.snapshot.queue).toEqual([]);

    world.xmpp.back();
    await settle();
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);
  });

  it('when the agent reconnects while a hundred calls are open, then it rejoins their rooms many at a time, not one after another', async () => {
    const world = new FakeWorld();
    const { agent, api } = await agentOnline(world, 'agent1');
    api.openRooms = Array.from({ length: 100 }, (_, i) => openCall({ room: `guest-${i}@conference.lobby.test`, assignmentId: 1, assignmentName: 'Sales', guestUsername: `g${i}`, callId: `g${i}--c` }));
    await world.xmpp.restart();
    const session = sessionOf(world, AGENT1);
    const ejabberdSlow = deferred<void>();
    session.joinGate = ejabberdSlow.promise;

    world.xmpp.back();
    await settle();
    expect(session.joinsInFlight.now).toBeGreaterThanOrEqual(10);
    ejabberdSlow.resolve();
    await settle();
    expect(session.joined.size).toBe(100);
    expect(agent.snapshot.phase).toBe('idle');
  });

  it('when the server lists no open call any more as the agent reconnects, then the rooms of ended calls are left and their guests are not queued', async () => {
    const world = new FakeWorld();
    await guestWaiting(world);
    const { agent, api } = await agentOnline(world, 'agent1');
    await world.xmpp.restart();
    api.openRooms = [];

    world.xmpp.back();
    await settle();

    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'agent1')).toBeNull();
    expect(agent.snapshot.queue).toEqual([]);
  });

  it('when ejabberd restarts mid-call, then the call goes on on both sides, the guest re-announces InCall and chat works again', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);

    await world.xmpp.restart();
    await settle();
    // the guest's shutdown presence reached the agent: the call waits for it to come back
    world.clock.advance(5_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(guest.snapshot.phase).toBe('ongoing');

    world.xmpp.back();
    await settle();
    world.clock.advance(30_000);
    await settle();

    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${callId}`);
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(world.media.publishers(callId).sort()).toEqual([AGENT1, 'guest1'].sort());
    guest.sendChat('still there?');
    await settle();
    expect(agent1.agent.snapshot.status.chatMessages.map((m) => m.body)).toEqual(['still there?']);

    await agent1.agent.hangup();
    await settle();
    expect(guest.snapshot).toMatchObject({ phase: 'ended', endReason: 'agent' });
  });

  it('when the agent is still reconnecting long after the guest left its room, then the call is not ended until the agent can look', async () => {
    const world = new FakeWorld();
    const { agent1, callId } = await inCall(world);
    await world.xmpp.restart();
    await settle();

    world.clock.advance(60_000); // the agent's backoff (up to 32 s) is longer than the guest's
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);

    world.xmpp.back();
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
  });

  it('when only the guest\'s stream drops mid-call, then the agent keeps the call while it reconnects, and ends it if the guest never comes back', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const guestSession = sessionOf(world, 'guest1@lobby.test');

    world.xmpp.cut(guestSession);
    await settle();
    world.clock.advance(8_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    world.xmpp.back([guestSession]);
    await settle();
    world.clock.advance(30_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.activeCall?.guestStatus).toBe(`InCall|${AGENT1}|${callId}`);
    expect(guest.snapshot.phase).toBe('ongoing');

    // the guest's stream drops for good (its browser died without a word)
    world.xmpp.cut(guestSession);
    await settle();
    world.clock.advance(20_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.lastEnded).toEqual({ callId, reason: 'guest' });
  });

  it('when the server\'s event stream comes back after a loss, then the agent joins the rooms of calls opened meanwhile', async () => {
    const world = new FakeWorld();
    const { agent, api } = await agentOnline(world, 'agent1');
    api.events.live(true);
    api.openRooms = [];
    await settle();
    const otherRoom = 'assignment-2@conference.lobby.test';

    api.events.live(false);
    api.openRooms = [openCall({ room: otherRoom, assignmentId: 2, assignmentName: 'Support', guestUsername: 'guest9', callId: 'guest9--x' })];
    api.events.live(true);
    await settle();

    expect(agent.snapshot.live).toBe(true);
    expect(world.xmpp.statusOf(otherRoom, 'agent1')).toBe('');
  });

  it('when the server says resync (it may have missed events of its other instances), then the agent joins the rooms of calls opened meanwhile', async () => {
    const world = new FakeWorld();
    const { agent, api } = await agentOnline(world, 'agent1');
    api.events.live(true);
    await settle();
    const otherRoom = 'assignment-2@conference.lobby.test';
    api.openRooms = [openCall({ room: otherRoom, assignmentId: 2, assignmentName: 'Support', guestUsername: 'guest9', callId: 'guest9--x' })];
    await settle();
    expect(world.xmpp.statusOf(otherRoom, 'agent1')).toBeNull();

    api.events.resync();
    await settle();

    expect(agent.snapshot.live).toBe(true);
    expect(world.xmpp.statusOf(otherRoom, 'agent1')).toBe('');
  });

  it('when the guest\'s XMPP session reconnects, then it authenticates with a credential from a new registration of the same guest (the first one expires after an hour)', async () => {
    const world = new FakeWorld();
    const { api } = await guestWaiting(world);
    let registered = 0;
    api.register = (guestId, companyId) => {
      registered++;
      expect([guestId, companyId]).toEqual(['guest-id-1', 1]);
      return Promise.resolve({
        jabberusername: 'guest1@lobby.test',
        username: 'guest1',
        guestRooms: [{ assignmentId: 1, name: 'Sales', room: ASSIGNMENT_ROOM }],
        access_token: 'token-2',
        credential_expires_in: 3600,
        companyId: 1,
        location: { latitude: '', longitude: '' },
        credential: `fresh-${registered}`,
        expires_in: 3600,
      });
    };
    const refresh = sessionOf(world, 'guest1@lobby.test').options.refreshCredential;
    expect(refresh).toBeTypeOf('function');
    await expect(refresh!()).resolves.toBe('fresh-1');
    expect(registered).toBe(1);
  });
});
