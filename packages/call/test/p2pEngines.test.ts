/**
 * The p2p transport (src/media/p2pTransport.ts) inside the engines, on fakes: a GuestCall and AgentDesks
 * on the fake XMPP server whose media grants say p2p, so each opens the real P2PTransport over a fake
 * Jingle network (test/helpers/fakeJingle.ts). Each test fails when its p2p flow breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSIGNMENT_ROOM, FakeWorld, settle } from './helpers/fakes.ts';
import { FakeJingleNetwork, FakeMediaStream, type FakeTransceiver } from './helpers/fakeJingle.ts';
import { agentOnline, guestWaiting } from './helpers/participants.ts';
import { P2P_INITIATE_ATTEMPTS } from '../src/media/p2pTransport.ts';
import { P2P_UNREACHABLE } from '../src/room/p2pCall.ts';
import { UnsendableCameraError } from '../src/media/cameraGuard.ts';

const AGENT1 = 'agent1@lobby.test';

/** A world whose company uses p2p: the grants say so, the sessions have Jingle ports on one network. */
function p2pWorld(): { world: FakeWorld; network: FakeJingleNetwork } {
  const world = new FakeWorld();
  const network = new FakeJingleNetwork();
  world.xmpp.jingle = network;
  return { world, network };
}

/** `declined`: how many of the guest's session-initiates the agent's console refuses */
async function p2pCall(declined = 0) {
  const { world, network } = p2pWorld();
  network.declineNext = declined;
  const guest = await guestWaiting(world);
  const agent1 = await agentOnline(world, 'agent1');
  const callId = guest.guest.snapshot.callId!;
  await agent1.agent.answer(callId);
  await settle(40);
  await until(() => network.declined.length >= declined);
  await settle(40);
  const [guestSide, agentSide] = network.calls;
  return { world, network, ...guest, agent1, callId, guestSide: guestSide!, agentSide: agentSide! };
}

/** Waits (real time: the transport's retry delay) until `done`, at most 2 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const senders = (transceivers: FakeTransceiver[], kind: 'audio' | 'video') =>
  transceivers.filter((t) => t.receiver.track.kind === kind).map((t) => t.sender);

describe('p2p transport in the engines, on fakes', () => {
  const native = (globalThis as { MediaStream?: unknown }).MediaStream;
  beforeAll(() => {
    (globalThis as { MediaStream?: unknown }).MediaStream = FakeMediaStream;
  });
  afterAll(() => {
    (globalThis as { MediaStream?: unknown }).MediaStream = native;
  });

  it('when an agent answers a p2p call, then the guest opens a Jingle session toward that console and both receive each other without a media room', async () => {
    const { world, network, guest, agent1, callId, guestSide, agentSide } = await p2pCall();

    // the agent told the guest where it waits (its full JID); the guest initiated toward exactly that
    const answer = world.xmpp.controlLog.find((c) => c.control.action === 'answer');
    expect(answer?.control).toMatchObject({ callId, peer: expect.stringMatching(/^agent1@lobby\.test\/console-/) as string });
    expect(guestSide.peer).toBe(answer?.control.peer);
    expect(agentSide.peer).toBe('guest1@lobby.test/web');
    expect(network.declined).toEqual([]);

    // both sides have the other's feed; the guest announced InCall; no Janus room was ever used
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT1]);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${callId}`);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(agent1.agent.snapshot.remoteFeeds[0]!.stream.getTracks().map((t) => t.kind).sort()).toEqual(['audio', 'video']);
    expect(world.media.rooms.size).toBe(0);
    // the offer carries camera, microphone and the screen's content (last, nothing sent on it yet)
    expect(guestSide.pc.getTransceivers().map((t) => t.receiver.track.kind)).toEqual(['audio', 'video', 'video']);
    expect(guestSide.pc.getTransceivers()[2]!.sender.track).toBeNull();
  });

  it("when the agent's console declines the guest's session-initiate once, then the guest tries again and the call goes on", async () => {
    const { network, guest, agent1, api } = await p2pCall(1);
    await until(() => guest.snapshot.phase === 'ongoing');

    expect(network.declined).toEqual(['guest1@lobby.test/web']);
    const fromGuest = network.calls.filter((c) => c.peer.startsWith('agent1@lobby.test/'));
    expect(fromGuest).toHaveLength(2); // the refused session, then the accepted one
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.stages.createOffer).toBe(true);
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT1]);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(api.reports.filter((r) => r.success === false)).toEqual([]);
  });

  it("when every session-initiate of the guest is declined, then it is tried a bounded number of times and the call fails as p2pUnreachable with its report marked failed", async () => {
    const { world, network, guest, api, callId, agent1 } = await p2pCall(P2P_INITIATE_ATTEMPTS);
    await until(() => guest.snapshot.phase === 'failed');

    expect(network.declined).toHaveLength(P2P_INITIATE_ATTEMPTS);
    expect(network.calls.filter((c) => c.peer.startsWith('agent1@lobby.test/'))).toHaveLength(P2P_INITIATE_ATTEMPTS);
    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(P2P_UNREACHABLE);
    expect(guest.snapshot.stages.createOffer).toBe(false);
    expect(api.reports).toContainEqual(expect.objectContaining({ call_id: callId, success: false }));
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'the guest left its room').toBeNull();
    // the agent who answered is not left in a call without media
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.lastEnded).toMatchObject({ callId });
  });

  it("when another session than the call's guest offers the agent a Jingle session, then it is declined and the call goes on", async () => {
    const { network, agent1, guestSide, agentSide } = await p2pCall();
    const stranger = network.port('guest2@lobby.test/web');
    const agentJid = guestSide.peer; // the agent console's full JID

    await expect(stranger.call(agentJid).start()).rejects.toThrow();
    await settle();

    expect(network.declined).toEqual(['guest2@lobby.test/web']);
    expect(agentSide.ended).toBe(false);
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
  });

  it('when the guest shares its screen, then the agent receives it as the -screen feed (Jingle unmute of the last content) until it stops', async () => {
    const { guest, agent1, guestSide } = await p2pCall();
    const screenContent = guestSide.pc.getTransceivers()[2]!;

    await guest.startScreenShare();
    await settle();
    expect(screenContent.sender.track?.kind).toBe('video');
    expect(guestSide.sent).toContain(`unmute:${screenContent.mid}`);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display).sort()).toEqual(['guest1', 'guest1-screen']);

    await guest.stopScreenShare();
    await settle();
    expect(screenContent.sender.track).toBeNull();
    expect(guestSide.sent).toContain(`mute:${screenContent.mid}`);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
  });

  it('when the guest mutes its microphone, then nothing is sent on its audio content until it unmutes', async () => {
    const { guest, guestSide } = await p2pCall();
    const [audio] = senders(guestSide.pc.getTransceivers(), 'audio');
    const sent = audio!.track;

    guest.setMuted('audio', true);
    await settle();
    expect(audio!.track).toBeNull();

    guest.setMuted('audio', false);
    await settle();
    expect(audio!.track).toBe(sent);
  });

  it('when the guest switches to a camera whose frames the encoder never sends, then the previous camera is sent again and the change is refused', async () => {
    const { world, guest, guestSide } = await p2pCall();
    world.unsendableCameras.add('depth-camera');
    const [camera] = senders(guestSide.pc.getTransceivers(), 'video'); // the camera's content (the screen's is last)
    expect(camera!.track?.deviceId).toBe('camera-0');

    // a camera that can be sent: it stays
    await guest.changeDevices({ videoDeviceId: 'camera-2' });
    expect(camera!.track?.deviceId).toBe('camera-2');

    // the depth camera: tried, then the previous camera is back and the guest is told
    await expect(guest.changeDevices({ videoDeviceId: 'depth-camera' })).rejects.toBeInstanceOf(UnsendableCameraError);
    expect(camera!.history.map((t) => t?.deviceId)).toEqual(['camera-0', 'camera-2', 'depth-camera', 'camera-2']);
    expect(camera!.track?.readyState).toBe('live');
    expect(guest.snapshot.localStream?.getVideoTracks()[0]?.getSettings().deviceId).toBe('camera-2');
    expect(guest.snapshot.phase).toBe('ongoing');
  });

  it('when the agent holds a p2p call, then it sends a Jingle hold before ending the session, the guest holds, and a resume opens a new session', async () => {
    const { network, guest, agent1, callId, agentSide } = await p2pCall();

    await agent1.agent.hold();
    await settle(40);
    expect(agentSide.sent).toEqual(['hold']);
    expect(agentSide.ended).toBe(true);
    expect(guest.snapshot.status.peerCall).toBe('Paused');

    agent1.agent.resume();
    await settle(60);
    const newCallId = guest.snapshot.callId!;
    expect(newCallId).not.toBe(callId);
    expect(network.calls).toHaveLength(4); // the held pair and the resumed pair
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.activeCall).toMatchObject({ callId: newCallId, held: false });
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
  });

  it('when a p2p call is transferred, then the taker gets its own Jingle session with the guest and the first agent leaves without ending the call', async () => {
    const { world, network, guest, agent1, callId } = await p2pCall();
    const agent2 = await agentOnline(world, 'agent2');

    await agent1.agent.transfer({ toUserId: 2 });
    agent2.api.events.transfer({ id: 7, callId, room: ASSIGNMENT_ROOM, guestUsername: 'guest1', fromName: 'agent1', fromJid: AGENT1 });
    await settle();
    await agent2.agent.acceptTransfer(7);
    agent1.api.events.transferAccepted({ id: 7, callId, toJid: 'agent2@lobby.test' });
    await settle(60);

    expect(agent1.agent.snapshot.lastEnded).toEqual({ callId, reason: 'transferred' });
    expect(world.xmpp.controlLog.filter((c) => c.control.action === 'end')).toEqual([]);
    const toAgent2 = network.calls.filter((c) => c.peer.startsWith('agent2@lobby.test/'));
    expect(toAgent2).toHaveLength(1);
    expect(agent2.agent.snapshot.phase).toBe('inCall');
    expect(agent2.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual(['agent2@lobby.test']);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|agent2@lobby.test|${callId}`);
  });
});
