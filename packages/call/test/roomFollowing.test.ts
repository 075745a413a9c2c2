/**
 * The rooms a console follows (src/agent/roomFollowing.ts) on their own, on the fake XMPP server: the open
 * calls' rooms joined and both lists built from their guests' presence, round robin's routing of one call
 * (an offer to another agent hides it, ours ends on our clock), a room that cannot be joined, and the rejoin
 * after the stream came back (rooms of ended calls dropped, kept rooms joined whatever the server lists).
 */
import { describe, expect, it } from 'vitest';
import type { CallRoutingInfo as CallRouting } from '@lobby/contracts';
import type { OpenCallRoom } from '../src/api/consoleApi.ts';
import { RoomFollowing, type FollowedLists } from '../src/agent/roomFollowing.ts';
import { FakeClock, FakeXmppServer, createFakeConsoleApi, openCall, settle, type FakeSignalling } from './helpers/fakes.ts';

const ROOM_A = 'a1-guest1@conference.lobby.test';
const ROOM_B = 'a1-guest2@conference.lobby.test';

async function guestIn(server: FakeXmppServer, room: string, nick: string, status: string) {
  const session = server.factory({ wsUrl: 'ws://xmpp.test', jid: `${nick}@guest.lobby.test`, credential: 'x' }) as FakeSignalling;
  await session.connect();
  await session.joinRoom(room, nick, status, { userType: 'guest', appointmentID: '', callType: 'video' });
  return session;
}

async function followingOf(server: FakeXmppServer, rooms: OpenCallRoom[], kept: OpenCallRoom[] = []) {
  const api = createFakeConsoleApi('agent1@lobby.test');
  api.openRooms = rooms.map((r) => openCall({ assignmentName: 'Sales', ...r }));
  const clock = new FakeClock();
  const agent = server.factory({ wsUrl: 'ws://xmpp.test', jid: 'agent1@lobby.test', credential: 'x' }) as FakeSignalling;
  await agent.connect();
  const lists: FollowedLists = { queue: [], runningCalls: [] };
  const failures: string[] = [];
  const following = new RoomFollowing({
    api,
    signalling: () => agent,
    clock,
    nick: () => 'agent1',
    lobbyElement: () => ({ userType: 'agent', appointmentID: '' }),
    read: () => lists,
    write: (patch) => Object.assign(lists, patch),
    failed: (message) => void failures.push(message),
    keptRooms: () => kept,
  });
  agent.on('roomPresence', (presence) => {
    if (presence.self) return;
    following.onPresence(presence);
    following.relist(presence);
  });
  return { api, clock, agent, lists, failures, following };
}

describe('the rooms a console follows', () => {
  it('when the console starts, then it joins the open calls\' rooms and lists waiting guests and calls others are in, each entry changing with its guest', async () => {
    const server = new FakeXmppServer();
    const guest1 = await guestIn(server, ROOM_A, 'guest1', 'OpenCall||guest1--c1');
    await guestIn(server, ROOM_B, 'guest2', 'InCall|agent2@lobby.test|guest2--c2');
    const { lists, following } = await followingOf(server, [
      { room: ROOM_A, assignmentId: 1, guestUsername: 'guest1', callId: 'guest1--c1' },
      { room: ROOM_B, assignmentId: 1, guestUsername: 'guest2', callId: 'guest2--c2' },
    ]);
    await following.start();
    await settle();
    expect(following.rooms().sort()).toEqual([ROOM_A, ROOM_B]);
    expect(lists.queue.map((e) => [e.callId, e.assignmentName])).toEqual([['guest1--c1', 'Sales']]);
    expect(lists.runningCalls.map((e) => e.callId)).toEqual(['guest2--c2']);
    expect(following.presenceOf(ROOM_A, 'guest1')?.statusText).toBe('OpenCall||guest1--c1');

    await guest1.leaveRoom(ROOM_A, 'guest1');
    await settle();
    expect(lists.queue).toEqual([]);
    expect(following.presenceOf(ROOM_A, 'guest1')).toBeNull();
  });

  it('when round robin offers a call to another agent, then it leaves our queue; offered to us, its offer ends on our clock at most offerSeconds from now', async () => {
    const server = new FakeXmppServer();
    await guestIn(server, ROOM_A, 'guest1', 'OpenCall|roundRobin|guest1--c1');
    const { clock, lists, following } = await followingOf(server, [{ room: ROOM_A, assignmentId: 1, guestUsername: 'guest1', callId: 'guest1--c1' }]);
    await following.start();
    await settle();
    expect(lists.queue).toHaveLength(1);
    const routing = (r: Partial<CallRouting>): CallRouting => ({ callId: 'guest1--c1', assignmentId: 1, state: 'offered', offeredTo: null, expiresAt: null, offerSeconds: null, ...r });
    following.onRouting(routing({ offeredTo: 'agent2' }));
    expect(lists.queue).toEqual([]);
    // the server's clock is an hour ahead: the offer still ends 20 s from now here
    following.onRouting(routing({ offeredTo: 'agent1', expiresAt: new Date(clock.now() + 3_600_000).toISOString(), offerSeconds: 20 }));
    expect(lists.queue.map((e) => e.offerExpiresAt)).toEqual([clock.now() + 20_000]);
    following.onRouting(routing({ state: 'open' }));
    expect(lists.queue.map((e) => e.offerExpiresAt)).toEqual([null]);
  });

  it('when a room cannot be joined, then it is told and the room is not kept', async () => {
    const server = new FakeXmppServer();
    const { agent, failures, following } = await followingOf(server, []);
    agent.connected = false;
    await following.join({ room: ROOM_A, assignmentId: 1, guestUsername: 'guest1', callId: 'guest1--c1' });
    expect(failures).toEqual([`could not join ${ROOM_A}: Error: not connected`]);
    expect(following.rooms()).toEqual([]);
  });

  it('when the stream comes back, then the rooms the server lists and the kept ones are joined again, ended calls\' rooms dropped, and the lists rebuilt from fresh presence', async () => {
    const server = new FakeXmppServer();
    const guest1 = await guestIn(server, ROOM_A, 'guest1', 'OpenCall||guest1--c1');
    await guestIn(server, ROOM_B, 'guest2', 'OpenCall||guest2--c2');
    const kept: OpenCallRoom = { room: 'a1-guest3@conference.lobby.test', assignmentId: 0, guestUsername: 'guest3', callId: 'guest3--c3' };
    const { api, agent, lists, following } = await followingOf(
      server,
      [
        { room: ROOM_A, assignmentId: 1, guestUsername: 'guest1', callId: 'guest1--c1' },
        { room: ROOM_B, assignmentId: 1, guestUsername: 'guest2', callId: 'guest2--c2' },
      ],
      [kept],
    );
    await following.start();
    await settle();
    expect(lists.queue.map((e) => e.callId)).toEqual(['guest1--c1', 'guest2--c2']);
    // the console's stream drops; meanwhile guest2's call ended and guest1 went on waiting
    server.cut(agent);
    await settle();
    api.openRooms = [openCall({ room: ROOM_A, assignmentId: 1, assignmentName: 'Sales', guestUsername: 'guest1', callId: 'guest1--c1' })];
    server.back([agent]);
    await following.rejoin('signalling');
    await settle();
    expect(following.rooms().sort()).toEqual([ROOM_A, kept.room]);
    expect(agent.joined.has(kept.room)).toBe(true);
    expect(lists.queue.map((e) => e.callId)).toEqual(['guest1--c1']);
    expect(guest1.joined.has(ROOM_A)).toBe(true);
  });
});
