/**
 * The end of the guest's call (src/guest/callEnd.ts, docs/protocol.md "End"), on its own: a CallEnd over a
 * real call room on the fakes' ports (its media published on the fake media server, beside an agent's),
 * the guest's real room presence on the fake XMPP server, and its timestamps' delivery into a recording
 * API. The engines' ends over a whole call are in engines.test.ts and endDelivery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CallEnd } from '../src/guest/callEnd.ts';
import { initialGuestSnapshot, type GuestCallSnapshot } from '../src/guest/guestSnapshot.ts';
import { GuestRoomPresence } from '../src/guest/roomPresence.ts';
import { TimestampDelivery } from '../src/guest/timestampDelivery.ts';
import type { TimestampFlag } from '../src/api/guestApi.ts';
import { CallRoom } from '../src/room/callRoom.ts';
import { initialCallStatus } from '../src/state/callStatus.ts';
import { ASSIGNMENT_ROOM, FakeWorld, asFake, fakeStream, settle, type FakeMedia, type FakeSignalling } from './helpers/fakes.ts';

const CALL = 'call-1';
const AGENT = 'agent1@lobby.test';

/** A guest in a call with agent1: published in the call's media room, in its own XMPP room, its page followed. */
async function guestInCall(world: FakeWorld) {
  const ports = world.ports();
  let snapshot: GuestCallSnapshot = {
    ...initialGuestSnapshot(),
    phase: 'ongoing',
    status: { ...initialCallStatus(), peerCall: 'Resumed', peers: [{ peerJID: AGENT, username: 'agent1' }] as GuestCallSnapshot['status']['peers'] },
    username: 'guest1',
    callId: CALL,
    initialCallId: CALL,
  };
  const read = () => snapshot;
  const write = (patch: Partial<GuestCallSnapshot>) => (snapshot = { ...snapshot, ...patch });
  const session = world.xmpp.factory({ wsUrl: 'ws://xmpp.test', jid: 'guest1@lobby.test', credential: 'c' }) as FakeSignalling;
  await session.connect();
  const visible: boolean[] = [];
  const presence = new GuestRoomPresence({
    environment: ports.environment,
    signalling: () => session,
    room: () => ASSIGNMENT_ROOM,
    username: () => 'guest1',
    call: read,
    appointment: () => null,
    roundRobin: false,
    pageVisible: (v) => visible.push(v),
  });
  await presence.join();
  presence.followVisibility();
  const room = new CallRoom({ ports, read, write, signalling: () => session, room: () => ASSIGNMENT_ROOM });
  // the agent publishes in the call's media room, then the guest joins and publishes there
  const agentMedia = world.media.factory({ servers: [], iceServers: [] }) as FakeMedia;
  await agentMedia.join({ room: CALL, pin: CALL }, AGENT);
  await agentMedia.publish({ stream: fakeStream(true), audio: true, video: true });
  const media = room.open({ servers: ['ws://janus.test'], iceServers: [] }) as unknown as FakeMedia;
  await room.joinAndPublish(media, { room: { room: CALL, pin: CALL }, display: 'guest1', stream: Promise.resolve(fakeStream(true)), video: true });
  await settle();
  const sent: Array<{ callId: string; flags: TimestampFlag[] }> = [];
  const delivery = new TimestampDelivery((callId, flags) => {
    sent.push({ callId, flags: [...flags] });
    return Promise.resolve();
  }, world.clock);
  const ending = new CallEnd({ room, presence, delivery, read, write });
  const inRoom = () => world.xmpp.rooms.get(ASSIGNMENT_ROOM)?.has('guest1') ?? false;
  return { ending, read, write, media, agentMedia, sent, visible, inRoom, ports, camera: asFake(snapshot.localStream)! };
}

describe('the end of the guest\'s call', () => {
  it('when the guest hangs up, then its camera stops, its media leaves destroying the room, the snapshot is cleared, it leaves its room and its exit and the call\'s end go to the server', async () => {
    const world = new FakeWorld();
    const { ending, read, media, agentMedia, sent, inRoom, camera } = await guestInCall(world);
    expect(read().remoteFeeds.map((f) => f.display)).toEqual([AGENT]);
    expect(inRoom()).toBe(true);
    let destroyed = 0;
    agentMedia.on('destroyed', () => destroyed++);

    await ending.end('guest');
    await settle();

    expect(read()).toMatchObject({ phase: 'ended', endReason: 'guest', callId: CALL, localStream: null, remoteFeeds: [], localScreen: null, mediaNotice: null });
    expect(read().status).toMatchObject({ peers: [], peerCall: null, streamsReady: { local: false, remote: false } });
    expect(read().status.connection.janus).toBe(false);
    expect(camera.stopped).toBe(true);
    expect(media.closedWith).toEqual({ destroyRoom: true });
    // the room destroyed ends the call for the agent too
    expect(world.media.rooms.has(CALL)).toBe(false);
    expect(destroyed).toBe(1);
    expect(inRoom()).toBe(false);
    expect(sent).toEqual([{ callId: CALL, flags: ['guest_exit_timestamp', 'call_ended_timestamp'] }]);
  });

  it('when the agent ends the call, then the guest\'s media leaves without destroying the room and only the call\'s end goes', async () => {
    const world = new FakeWorld();
    const { ending, read, media, sent, inRoom } = await guestInCall(world);

    await ending.end('agent');

    expect(read()).toMatchObject({ phase: 'ended', endReason: 'agent' });
    expect(media.closedWith).toEqual({ destroyRoom: false });
    expect(world.media.publishers(CALL)).toEqual([AGENT]);
    expect(inRoom()).toBe(false);
    expect(sent).toEqual([{ callId: CALL, flags: ['call_ended_timestamp'] }]);
  });

  it('when the call ended, then the page\'s visibility no longer changes its status', async () => {
    const world = new FakeWorld();
    const { ending, visible, ports } = await guestInCall(world);
    ports.environment.setHidden(true);
    expect(visible).toEqual([false]);

    await ending.end('agentLeft');
    ports.environment.setHidden(false);

    expect(visible).toEqual([false]);
  });

  it('when the call fails, then it is failed at once with its code, its media leaves destroying the room and the call\'s end goes', async () => {
    const world = new FakeWorld();
    const { ending, read, media, sent, inRoom } = await guestInCall(world);

    await ending.fail(CALL, 'mediaLost');

    expect(read()).toMatchObject({ phase: 'failed', error: 'mediaLost', endReason: 'error', localStream: null });
    expect(media.closedWith).toEqual({ destroyRoom: true });
    expect(inRoom()).toBe(false);
    expect(sent).toEqual([{ callId: CALL, flags: ['call_ended_timestamp'] }]);
  });

  it('when a call is over already, or the failure is another call\'s, then nothing more happens', async () => {
    const world = new FakeWorld();
    const { ending, read, write, media, sent } = await guestInCall(world);

    await ending.fail('call-0', 'mediaLost');
    expect(read().phase).toBe('ongoing');
    expect(media.closed).toBe(false);

    await ending.fail(CALL, 'mediaLost');
    // its own end control comes back from the room; then its page fails once more
    await ending.end('agent');
    write({ phase: 'ended' });
    await ending.fail(CALL, 'p2pUnreachable');

    expect(read()).toMatchObject({ phase: 'ended', error: 'mediaLost', endReason: 'error' });
    expect(sent).toEqual([{ callId: CALL, flags: ['call_ended_timestamp'] }]);
  });

  it('when the next call starts while the ended call\'s media closes, then the guest stays in its room and the next call\'s camera is left alone', async () => {
    const world = new FakeWorld();
    const { ending, read, write, inRoom } = await guestInCall(world);

    const ended = ending.end('guest');
    const next = fakeStream(true);
    write({ phase: 'starting', callId: 'call-2', localStream: next });
    await ended;

    expect(inRoom()).toBe(true);
    expect(asFake(read().localStream)?.stopped).toBe(false);
  });
});
