/**
 * The engines' flows on fakes (test/helpers/fakes.ts): a GuestCall and AgentDesks on one in-process XMPP
 * and media server, with fake devices, clock and APIs. Each test follows a flow in docs/protocol.md and fails
 * when that flow breaks.
 */
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ROOM, FakeWorld, asFake, deferred, settle } from './helpers/fakes.ts';
import { agentOnline, guestReady, guestWaiting, inCall } from './helpers/participants.ts';

const AGENT1 = 'agent1@lobby.test';
const AGENT2 = 'agent2@lobby.test';
const GUEST_JID = 'guest1@lobby.test';

describe('call engines on fakes', () => {
  it('when an agent answers, then the guest sees Resumed and sends InCall|agentJid|callId', async () => {
    const world = new FakeWorld();
    const { guest, api } = await guestWaiting(world);
    const callId = guest.snapshot.callId!;
    expect(guest.snapshot.phase).toBe('waiting');
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`OpenCall||${callId}`);
    const { agent } = await agentOnline(world, 'agent1');
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);

    await agent.answer(callId);
    await settle();

    expect(agent.snapshot.phase).toBe('inCall');
    expect(agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peerCall).toBe('Resumed');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT1]);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${callId}`);
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_answered_timestamp'] });
    expect(api.reports).toContainEqual({ call_id: callId, agent: AGENT1 });
  });

  it('when calls wait and the agent is free, then its console opens the media connection ahead of the answer; in a call it does not', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    expect(world.warmed).toEqual([]); // the waiting guest has its own session already
    const { agent } = await agentOnline(world, 'agent1');
    expect(world.warmed.length).toBeGreaterThan(0);
    expect(world.warmed.every((servers) => servers[0] === 'ws://janus.test')).toBe(true);

    await agent.answer(guest.snapshot.callId!);
    await settle();
    expect(agent.snapshot.phase).toBe('inCall');
    const before = world.warmed.length;
    guest.setMuted('audio', true); // the agent's desk changes state (the guest's presence) during the call
    await settle();
    expect(agent.snapshot.status.mutedAudioJIDs).toEqual([GUEST_JID]);
    expect(world.warmed.length).toBe(before);
  });

  it('when calls wait, then the desk asks for a standby media session with its own standby token, shows when it is ready, and ends it when it goes offline', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const { agent } = await agentOnline(world, 'agent1');
    expect(world.standbyRequests.length).toBeGreaterThan(0);
    const request = world.standbyRequests.at(-1)!;
    expect(await request.token()).toEqual({ token: `standby-${AGENT1}`, expires_in: 3600 });
    expect(agent.snapshot.mediaReady).toBe(false);

    request.onReady?.(true);
    expect(agent.snapshot.mediaReady).toBe(true);
    request.onReady?.(false); // taken by the answer
    expect(agent.snapshot.mediaReady).toBe(false);
    expect(request.wanted?.()).toBe(true);
    await agent.answer(guest.snapshot.callId!);
    await settle();
    expect(agent.snapshot.phase).toBe('inCall');
    expect(request.wanted?.()).toBe(false); // in a call: none is made by itself

    await agent.stop();
    expect(world.cooled).toBe(1);
    expect(agent.snapshot.mediaReady).toBe(false);
  });

  it('when the agent holds and resumes, then the call continues under a new call id linked by hold-call', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);

    await agent1.agent.hold();
    await settle();
    expect(guest.snapshot.status.peerCall).toBe('Paused');
    expect(guest.snapshot.status.OnHoldCount).toBe(1);
    expect(guest.snapshot.remoteFeeds).toEqual([]);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`CallOnHold|${AGENT1}|${callId}`);
    // both left the held call's media room; the guest destroyed it
    expect(world.media.publishers(callId)).toEqual([]);
    expect(agent1.agent.snapshot.activeCall?.held).toBe(true);

    agent1.agent.resume();
    await settle();

    const newCallId = guest.snapshot.callId!;
    expect(newCallId).not.toBe(callId);
    expect(guest.snapshot.initialCallId).toBe(callId);
    expect(api.holdCalls).toEqual([
      { origin_call_id: callId, current_call_id: callId, new_call_id: newCallId, assignment_id: 1, guest_username: 'guest1' },
    ]);
    expect(agent1.agent.snapshot.activeCall).toMatchObject({ callId: newCallId, held: false });
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(world.media.publishers(newCallId).sort()).toEqual([AGENT1, 'guest1'].sort());
    expect(guest.snapshot.status.peerCall).toBe('Resumed');
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${newCallId}`);
  });

  it('when the call is transferred, then the new agent takes over and the first leaves without ending it', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const agent2 = await agentOnline(world, 'agent2');

    await agent1.agent.transfer({ toUserId: 2 });
    expect(agent1.api.transfers).toEqual([{ callId, to: { toUserId: 2 } }]);
    agent2.api.events.transfer({ id: 7, callId, room: ASSIGNMENT_ROOM, guestUsername: 'guest1', fromName: 'agent1', fromJid: AGENT1 });
    await settle();
    expect(agent2.agent.snapshot.transfers.map((t) => t.id)).toEqual([7]);
    await agent2.agent.acceptTransfer(7);
    agent1.api.events.transferAccepted({ id: 7, callId, toJid: AGENT2 });
    await settle();

    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.lastEnded).toEqual({ callId, reason: 'transferred' });
    expect(world.xmpp.controlLog.filter((c) => c.control.action === 'end')).toEqual([]);
    expect(agent2.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent2.agent.snapshot.phase).toBe('inCall');
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT2]);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT2}|${callId}`);
    expect(world.media.publishers(callId).sort()).toEqual([AGENT2, 'guest1'].sort());
  });

  it('when a transfer\'s new agent reaches the guest only after the first agent left, then the call goes on and the guest names the new agent', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const agent2 = await agentOnline(world, 'agent2');
    // the guest's browser is slow to negotiate its subscription to the new agent
    const guestMedia = world.media.members(callId).find((m) => m.display === 'guest1')!;
    const subscribing = deferred<void>();
    guestMedia.subscriptionGate = subscribing.promise;

    await agent1.agent.transfer({ toUserId: 2 });
    agent2.api.events.transfer({ id: 7, callId, room: ASSIGNMENT_ROOM, guestUsername: 'guest1', fromName: 'agent1', fromJid: AGENT1 });
    await settle();
    await agent2.agent.acceptTransfer(7);
    agent1.api.events.transferAccepted({ id: 7, callId, toJid: AGENT2 });
    await settle();
    // the first agent has the new one's media and left; the guest has nobody's media, for longer than the grace
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(guest.snapshot.status.peers).toEqual([]);
    world.clock.advance(5000);
    await settle();
    expect(guest.snapshot.phase).toBe('ongoing');

    subscribing.resolve();
    await settle();
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT2]);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT2}|${callId}`);
    // the call was answered once: the new agent's arrival is not a second answer
    expect(api.timestamps.filter((t) => t.callId === callId && t.flags.includes('call_answered_timestamp'))).toHaveLength(1);
  });

  it('when the only agent\'s media never reached the guest and it leaves, then the guest ends the call after the grace time', async () => {
    const world = new FakeWorld();
    const { guest, callId } = await inCall(world);
    const agent2 = await agentOnline(world, 'agent2');
    const guestMedia = world.media.members(callId).find((m) => m.display === 'guest1')!;
    guestMedia.subscriptionGate = new Promise<void>(() => undefined);
    // a supervisor joins (announced to the guest, its media held back) and the agent's tab closes
    await agent2.agent.join(callId);
    await settle();
    world.media.drop(callId, AGENT1);
    await settle();
    world.clock.advance(5000);
    await settle();
    expect(guest.snapshot.phase).toBe('ongoing'); // the supervisor is still in the call
    world.media.drop(callId, AGENT2);
    await settle();
    world.clock.advance(1500);
    await settle();
    expect(guest.snapshot.phase).toBe('ended');
    expect(guest.snapshot.endReason).toBe('agentLeft');
  });

  it('when the agent leaves the media room without ending, then the guest ends the call as agentLeft after the grace time', async () => {
    const world = new FakeWorld();
    const { guest, api, callId } = await inCall(world);

    world.media.drop(callId, AGENT1); // the agent's tab closed
    await settle();
    expect(guest.snapshot.status.peers).toEqual([]);
    expect(guest.snapshot.phase).toBe('ongoing'); // a hold control may still come

    world.clock.advance(1500);
    await settle();
    expect(guest.snapshot.phase).toBe('ended');
    expect(guest.snapshot.endReason).toBe('agentLeft');
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'the guest left its room').toBeNull();
  });

  it('when a second agent joins a running call, then everybody receives everybody and the call stays the first agent\'s', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const agent2 = await agentOnline(world, 'agent2');
    expect(agent2.agent.snapshot.runningCalls.map((e) => e.callId)).toEqual([callId]);

    await agent2.agent.join(callId);
    await settle();

    expect(agent2.agent.snapshot.activeCall).toMatchObject({ callId, joined: true });
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT1, AGENT2]);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display).sort()).toEqual([AGENT2, 'guest1'].sort());
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`InCall|${AGENT1}|${callId}`);

    // the supervisor's hang-up only leaves
    await agent2.agent.hangup();
    await settle();
    expect(world.xmpp.controlLog.filter((c) => c.control.action === 'end')).toEqual([]);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(guest.snapshot.status.peers.map((p) => p.peerJID)).toEqual([AGENT1]);
  });

  it('when the browser ends a screen share by itself, then the sharer and the other side both drop it', async () => {
    const world = new FakeWorld();
    const { guest, ports, agent1 } = await inCall(world);

    await guest.startScreenShare();
    await settle();
    expect(guest.snapshot.status.screenShare).toBe(true);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toContain('guest1-screen');
    expect(agent1.agent.snapshot.status.isZoomed).toBe(true);

    ports.devices.screens[0]!.getVideoTracks()[0]!.endByBrowser(); // "Stop sharing"
    await settle();

    expect(guest.snapshot.status.screenShare).toBe(false);
    expect(guest.snapshot.localScreen).toBeNull();
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(agent1.agent.snapshot.status.isZoomed).toBe(false);
  });

  it('when either side mutes, then the other side sees it through room presence', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);

    guest.setMuted('audio', true);
    agent1.agent.setMuted('video', true);
    await settle();

    expect(agent1.agent.snapshot.status.mutedAudioJIDs).toEqual([GUEST_JID]);
    expect(guest.snapshot.status.mutedVideoJIDs).toEqual([AGENT1]);
    expect(world.media.transports.find((t) => t.display === 'guest1' && !t.closed)?.muted.audio).toBe(true);

    guest.setMuted('audio', false);
    await settle();
    expect(agent1.agent.snapshot.status.mutedAudioJIDs).toEqual([]);
  });

  it('when the guest cancels while the camera opens, then nothing is published afterwards and the camera stops', async () => {
    const world = new FakeWorld();
    const { guest, api, ports } = await guestReady(world);
    const camera = deferred<void>();
    ports.devices.gate = camera.promise;

    const calling = guest.call('video');
    await settle();
    expect(guest.snapshot.phase).toBe('starting');
    await guest.hangup();
    camera.resolve();
    await calling;
    await settle();

    expect(guest.snapshot.phase).toBe('ended');
    expect(guest.snapshot.endReason).toBe('guest');
    expect(api.grants).toEqual([]);
    expect(world.media.transports).toEqual([]);
    expect(ports.devices.streams.every((s) => s.stopped)).toBe(true);
  });

  it('when the guest cancels while the media connects, then it never publishes', async () => {
    const world = new FakeWorld();
    const { guest } = await guestReady(world);
    const connecting = deferred<void>();
    world.media.connectGate = connecting.promise;

    const calling = guest.call('video');
    await settle();
    expect(world.media.transports).toHaveLength(1);
    await guest.hangup();
    connecting.resolve();
    await calling;
    await settle();

    const [media] = world.media.transports;
    expect(media?.published).toBeNull();
    expect(media?.closed).toBe(true);
    expect(guest.snapshot.localStream).toBeNull();
  });

  it('when the guest hangs up, then both leave the media, the report gets both timestamps and the guest leaves its room', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const guestMedia = world.media.transports.find((t) => t.display === 'guest1')!;
    const agentMedia = world.media.transports.find((t) => t.display === AGENT1)!;

    await guest.hangup();
    await settle();

    expect(guest.snapshot).toMatchObject({ phase: 'ended', endReason: 'guest', localStream: null, remoteFeeds: [] });
    expect(api.timestamps).toContainEqual({ callId, flags: ['guest_exit_timestamp', 'call_ended_timestamp'] });
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'the guest left its room').toBeNull();
    expect(guestMedia.closedWith).toEqual({ destroyRoom: true });
    expect(agentMedia.closed).toBe(true);
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.lastEnded).toEqual({ callId, reason: 'guest' });
    expect(asFake(agent1.agent.snapshot.localStream)).toBeNull();
  });

  it('when the agent hangs up, then the guest ends as agent, stamps the end and leaves the media and its room', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const guestMedia = world.media.transports.find((t) => t.display === 'guest1')!;
    const agentStream = asFake(agent1.agent.snapshot.localStream)!;

    await agent1.agent.hangup();
    await settle();

    expect(agent1.agent.snapshot.lastEnded).toEqual({ callId, reason: 'agent' });
    expect(agentStream.stopped).toBe(true);
    expect(guest.snapshot).toMatchObject({ phase: 'ended', endReason: 'agent' });
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
    expect(api.timestamps.some((t) => t.flags.includes('guest_exit_timestamp'))).toBe(false);
    expect(guestMedia.closed).toBe(true);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'the guest left its room').toBeNull();
  });

  it('when chat messages and a file go both ways, then each side lists them with the right sender', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);

    guest.sendChat('  hello  ');
    await agent1.agent.sendFile(Object.assign(new Blob(['x']), { name: 'plan.png' }));
    await settle();

    const atAgent = agent1.agent.snapshot.status.chatMessages;
    expect(atAgent.map((m) => [m.body, m.from, m.mine])).toEqual([
      ['plan.png', AGENT1, true],
      ['hello', GUEST_JID, false],
    ]);
    expect(guest.snapshot.status.chatMessages[0]).toMatchObject({ from: AGENT1, file: { url: '/api/files/plan.png', kind: 'image' } });
    expect(guest.snapshot.status.unreadMessages).toBe(1);
  });
});
