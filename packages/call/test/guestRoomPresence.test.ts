/**
 * The guest's room presence module (src/guest/roomPresence.ts) on its own, on the fake XMPP server: what it
 * announces while waiting, in a call and on hold, its leaving the room at a call's end and not coming back
 * on a reconnection until the next call, its rejoin with the last status, and the page's visibility.
 */
import { describe, expect, it } from 'vitest';
import { GuestRoomPresence, type PresenceCallView } from '../src/guest/roomPresence.ts';
import type { Peer } from '../src/state/callStatus.ts';
import { ASSIGNMENT_ROOM, FakeEnvironment, FakeXmppServer, type FakeSignalling, settle } from './helpers/fakes.ts';

const AGENT: Peer = { peerJID: 'agent1@lobby.test', janusId: 'feed-1', username: 'agent1' };

async function presenceOn(server: FakeXmppServer, options: { appointmentAgent?: string; roundRobin?: boolean; android?: boolean } = {}) {
  const session = server.factory({ wsUrl: 'ws://xmpp.test', jid: 'guest1@lobby.test', credential: 'x' }) as FakeSignalling;
  await session.connect();
  const environment = new FakeEnvironment();
  const call: PresenceCallView = { phase: 'ready', callId: null, callKind: 'video', muted: { audio: false, video: false }, status: { peers: [], peerCall: null } };
  const visible: boolean[] = [];
  const presence = new GuestRoomPresence({
    environment,
    facts: options.android ? () => ({ pageHidden: environment.pageHidden(), isAndroid: true, notificationAllowed: false }) : undefined,
    signalling: () => session,
    room: () => ASSIGNMENT_ROOM,
    username: () => 'guest1',
    call: () => call,
    displayName: () => 'Ada',
    appointment: () => (options.appointmentAgent ? { id: '9', agentUsername: options.appointmentAgent } : null),
    roundRobin: !!options.roundRobin,
    pageVisible: (v) => visible.push(v),
  });
  return { session, environment, call, visible, presence };
}

describe('guest room presence module', () => {
  it('when the guest waits, is answered and held, then the room hears OpenCall|target, InCall|agent, CallOnHold, and nothing else while held', async () => {
    const server = new FakeXmppServer();
    const { call, presence } = await presenceOn(server, { appointmentAgent: 'Agent1' });
    await presence.join();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('');
    call.callId = 'call-1';
    call.phase = 'waiting';
    presence.announce();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('OpenCall|agent1|call-1');
    expect(server.presenceLog.at(-1)?.lobby).toEqual({ userType: 'guest', appointmentID: '9', callType: 'video', name: 'Ada' });
    call.status = { peers: [AGENT], peerCall: 'Resumed' };
    call.muted = { audio: true, video: false };
    presence.announce();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('InCall|agent1@lobby.test|call-1');
    expect(server.presenceLog.at(-1)?.lobby.audioMuted).toBe(true);
    presence.announce('CallOnHold', AGENT.peerJID);
    call.status = { peers: [], peerCall: 'Paused' };
    presence.announce();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('CallOnHold|agent1@lobby.test|call-1');
  });

  it('when the call ends, then the guest leaves its room; a reconnection meanwhile does not bring it back; the next call enters it again', async () => {
    const server = new FakeXmppServer();
    const { session, call, presence } = await presenceOn(server, { roundRobin: true });
    await presence.join();
    call.callId = 'call-1';
    presence.announce();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('OpenCall|roundRobin|call-1');
    presence.leaveAfterCall();
    expect(presence.inRoom).toBe(false);
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();
    server.cut(session);
    server.back([session]);
    await presence.rejoin();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();
    await presence.enter();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('');
    expect(presence.inRoom).toBe(true);
    // the last call's status is not announced again by a reconnection before the next call's own
    server.cut(session);
    server.back([session]);
    await presence.rejoin();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('');
  });

  it('when the stream drops during a wait and comes back, then the guest rejoins with the status the agents last had', async () => {
    const server = new FakeXmppServer();
    const { session, call, presence } = await presenceOn(server);
    await presence.join();
    call.callId = 'call-1';
    presence.announce();
    server.cut(session);
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();
    server.back([session]);
    await presence.rejoin();
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('OpenCall||call-1');
  });

  it('when another assignment is chosen, then the guest leaves the old room and enters the new one', async () => {
    const server = new FakeXmppServer();
    const { session } = await presenceOn(server);
    let room = ASSIGNMENT_ROOM;
    const presence = new GuestRoomPresence({
      environment: new FakeEnvironment(),
      signalling: () => session,
      room: () => room,
      username: () => 'guest1',
      call: () => ({ phase: 'ready', callId: null, callKind: 'video', muted: { audio: false, video: false }, status: { peers: [], peerCall: null } }),
      appointment: () => null,
      roundRobin: false,
      pageVisible: () => undefined,
    });
    await presence.join();
    await presence.switchRoom(() => (room = 'assignment-2@conference.lobby.test'));
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();
    expect(server.statusOf('assignment-2@conference.lobby.test', 'guest1')).toBe('');
  });

  it('when the page of a waiting Android guest is hidden, then it is told and the guest is Away; visible again, OpenCall; after stopping, nothing', async () => {
    const server = new FakeXmppServer();
    const { environment, call, visible, presence } = await presenceOn(server, { android: true });
    await presence.join();
    call.callId = 'call-1';
    call.phase = 'waiting';
    presence.followVisibility();
    environment.setHidden(true);
    expect(visible).toEqual([false]);
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('Away||call-1');
    environment.setHidden(false);
    expect(server.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe('OpenCall||call-1');
    presence.stopFollowingVisibility();
    environment.setHidden(true);
    expect(visible).toEqual([false, true]);
    await settle();
  });
});
