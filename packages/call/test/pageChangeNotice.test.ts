/**
 * What each side is told while an answered call changes page on the website (docs/widget.md "Moving
 * between pages"), on fakes: the agent's `guestChangingPage` from the moment the guest's page goes until
 * its next page's camera reaches the agent, and the guest's next page's `takingCallBack` while it takes
 * the call back until the agent's media reaches it.
 */
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ROOM, FakeWorld, settle } from './helpers/fakes.ts';
import { guestReady, guestWaiting, inCall } from './helpers/participants.ts';
import { TAKE_BACK_MS } from '../src/guest/callTakeBack.ts';
import { NAVIGATION_RETURN_MS } from '../src/agent/reconnection.ts';
import { GuestPageChange } from '../src/agent/guestPageChange.ts';
import type { RemoteFeed } from '../src/media/mediaSession.ts';
import type { RoomPresence } from '../src/xmpp/session.ts';

describe('the agent is told the guest is changing page', () => {
  it('when an answered call’s page says Navigating and goes, then the agent is told until the next page’s camera reaches it', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const agent = agent1.agent;
    const username = guest.snapshot.username!;
    const room = agent.snapshot.activeCall!.room;
    expect(agent.snapshot.guestChangingPage).toBe(false);

    const saved = guest.pageChange();
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);
    world.media.drop(callId, username);
    world.xmpp.leave(room, username);
    await settle();
    world.clock.advance(10_000);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);

    // the next page joins the room (no status yet), then takes the call back
    const next = await guestReady(world);
    expect(agent.snapshot.guestChangingPage).toBe(true);
    // its status may reach the agent before its camera does: the agent is still told
    world.xmpp.setPresence(room, username, `InCall|${agent1.jid}|${callId}`, { userType: 'guest', appointmentID: '' });
    await settle();
    expect(agent.snapshot.activeCall?.guestStatus).toBe(`InCall|${agent1.jid}|${callId}`);
    expect(agent.snapshot.guestChangingPage).toBe(true);
    await next.guest.call(saved!.kind, saved!);
    await settle();
    expect(agent.snapshot.remoteFeeds.map((f) => f.display)).toContain(username);
    expect(agent.snapshot.guestChangingPage).toBe(false);
    expect(agent.snapshot.activeCall?.callId).toBe(callId);
  });

  it('when a widget panel guest’s page goes without its Navigating reaching the agent, then the agent is told from the moment its camera leaves until it is back', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world, { pageChanges: true });
    const agent = agent1.agent;
    const username = guest.snapshot.username!;
    const room = agent.snapshot.activeCall!.room;
    expect(agent.snapshot.guestChangingPage).toBe(false);
    world.media.drop(callId, username);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);
    world.xmpp.leave(room, username);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);

    const next = await guestReady(world, { pageChanges: true });
    await next.guest.call('video', { callId, initialCallId: callId, answered: true });
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(false);
    expect(agent.snapshot.activeCall?.callId).toBe(callId);
  });

  it('when a widget panel guest’s presence leaves first, then the agent is told at once', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world, { pageChanges: true });
    const agent = agent1.agent;
    world.xmpp.leave(agent.snapshot.activeCall!.room, guest.snapshot.username!);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);
  });

  it('when the page says Navigating but stays, then the agent’s notice goes when its own status comes back and the call goes on', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const agent = agent1.agent;
    guest.pageLeaving();
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);
    world.clock.advance(5_000);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(false);
    expect(agent.snapshot.activeCall?.callId).toBe(callId);
  });

  it('when the guest’s next page never comes, then the call ends after the navigation wait and the notice with it', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const agent = agent1.agent;
    guest.pageChange();
    await settle();
    world.media.drop(callId, guest.snapshot.username!);
    world.xmpp.leave(agent.snapshot.activeCall!.room, guest.snapshot.username!);
    await settle();
    world.clock.advance(NAVIGATION_RETURN_MS - 1_000);
    await settle();
    expect(agent.snapshot.guestChangingPage).toBe(true);
    world.clock.advance(2_000);
    await settle();
    expect(agent.snapshot.activeCall).toBeNull();
    expect(agent.snapshot.lastEnded).toEqual({ callId, reason: 'guest' });
    expect(agent.snapshot.guestChangingPage).toBe(false);
  });

  it('when a guest of the full call page loses its connection (no page change), then the agent is not told it changes page', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    const agent = agent1.agent;
    world.xmpp.leave(agent.snapshot.activeCall!.room, guest.snapshot.username!);
    await settle();
    expect(agent.snapshot.activeCall).not.toBeNull();
    expect(agent.snapshot.guestChangingPage).toBe(false);
  });
});

describe('GuestPageChange', () => {
  const feed = (feedId: string, display: string) => ({ feedId, display }) as RemoteFeed;
  const gone = { available: false, nick: 'g1', info: {} } as RoomPresence;

  it('when the next page’s camera comes back under the same id (p2p: the guest’s JID), then the page change is over once that camera had left', () => {
    const change = new GuestPageChange();
    const activeCall = { callId: 'g1--1', guestNick: 'g1' };
    const camera = feed('g1@guest.test/web', 'g1');
    const agent = feed('agent2@lobby.test/console', 'agent2@lobby.test');
    change.onPresence({ activeCall, remoteFeeds: [camera, agent] }, gone, true);
    // its presence left, its camera not yet: still the page that went
    expect(change.changing({ activeCall, remoteFeeds: [camera, agent] })).toBe(true);
    expect(change.changing({ activeCall, remoteFeeds: [agent] })).toBe(true);
    expect(change.changing({ activeCall, remoteFeeds: [agent, camera] })).toBe(false);
  });

  it('when another call becomes the active one, then the page change of the previous call is forgotten', () => {
    const change = new GuestPageChange();
    change.onPresence({ activeCall: { callId: 'g1--1', guestNick: 'g1' }, remoteFeeds: [] }, gone, true);
    expect(change.changing({ activeCall: { callId: 'g1--1', guestNick: 'g1' }, remoteFeeds: [] })).toBe(true);
    expect(change.changing({ activeCall: { callId: 'g2--1', guestNick: 'g2' }, remoteFeeds: [] })).toBe(false);
    expect(change.changing({ activeCall: { callId: 'g1--1', guestNick: 'g1' }, remoteFeeds: [] })).toBe(false);
  });
});

describe('the guest’s next page says it takes the call back', () => {
  /** An answered call whose page went; `next` is the website's next page, ready to take it back. */
  async function answeredCallCarried(world: FakeWorld) {
    const call = await inCall(world);
    const saved = call.guest.pageChange()!;
    await settle();
    world.media.drop(call.callId, call.guest.snapshot.username!);
    world.xmpp.leave(call.agent1.agent.snapshot.activeCall!.room, call.guest.snapshot.username!);
    await settle();
    const next = await guestReady(world);
    return { ...call, saved, next: next.guest };
  }

  it('when the next page takes an answered call back, then it says so from the start until the agent’s media reaches it', async () => {
    const world = new FakeWorld();
    const { saved, next, callId } = await answeredCallCarried(world);
    expect(next.snapshot.takingCallBack).toBe(false);
    const seen: { phase: string; remote: boolean; taking: boolean }[] = [];
    next.on('change', (snap) => {
      if (snap.callId === callId) seen.push({ phase: snap.phase, remote: snap.status.streamsReady.remote, taking: snap.takingCallBack });
    });
    await next.call(saved.kind, saved);
    await settle();
    expect(next.snapshot.phase).toBe('ongoing');
    expect(next.snapshot.takingCallBack).toBe(false);
    // on while the call is published again (the agent's media may reach it first), off once both flow
    const started = seen.filter((s) => s.phase === 'starting');
    expect(started.length).toBeGreaterThan(0);
    expect(started.every((s) => s.taking)).toBe(true);
    expect(seen.slice(started.length)).toEqual(seen.slice(started.length).map(() => ({ phase: 'ongoing', remote: true, taking: false })));
  });

  it('when the next page takes a waiting call back, then it says so until the call waits again', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const saved = guest.pageChange()!;
    await settle();
    world.xmpp.leave(ASSIGNMENT_ROOM, guest.snapshot.username!);
    world.media.drop(saved.callId, guest.snapshot.username!);
    await settle();
    const next = (await guestReady(world)).guest;
    const seen: { phase: string; taking: boolean }[] = [];
    next.on('change', (snap) => {
      if (snap.callId === saved.callId) seen.push({ phase: snap.phase, taking: snap.takingCallBack });
    });
    await next.call(saved.kind, saved);
    await settle();
    expect(next.snapshot.phase).toBe('waiting');
    expect(next.snapshot.takingCallBack).toBe(false);
    expect(seen.filter((s) => s.phase === 'starting').every((s) => s.taking)).toBe(true);
    expect(seen.filter((s) => s.phase === 'starting').length).toBeGreaterThan(0);
    expect(seen.filter((s) => s.phase === 'waiting').every((s) => !s.taking)).toBe(true);
  });

  it('when the agent of the answered call is gone, then the next page stops saying it takes the call back after the agent’s wait', async () => {
    const world = new FakeWorld();
    const { saved, next, agent1 } = await answeredCallCarried(world);
    await agent1.agent.stop();
    await settle();
    await next.call(saved.kind, saved);
    await settle();
    expect(next.snapshot.phase).toBe('waiting');
    expect(next.snapshot.takingCallBack).toBe(true);
    world.clock.advance(TAKE_BACK_MS - 1_000);
    await settle();
    expect(next.snapshot.takingCallBack).toBe(true);
    world.clock.advance(2_000);
    await settle();
    expect(next.snapshot.takingCallBack).toBe(false);
  });

  it('when the guest hangs up while the next page takes the call back, then it no longer says so', async () => {
    const world = new FakeWorld();
    const { saved, next } = await answeredCallCarried(world);
    const shown: boolean[] = [];
    // the guest presses hang up as soon as the page says it takes the call back
    next.on('change', (snap) => {
      shown.push(snap.takingCallBack);
      if (snap.takingCallBack && shown.filter(Boolean).length === 1) void next.hangup();
    });
    const taking = next.call(saved.kind, saved);
    await taking;
    await settle();
    expect(shown).toContain(true);
    expect(next.snapshot.phase).toBe('ended');
    expect(next.snapshot.takingCallBack).toBe(false);
  });

  it('when a guest calls afresh (no call to take back), then it is never told it takes a call back', async () => {
    const world = new FakeWorld();
    const { guest } = await guestReady(world);
    const seen: boolean[] = [];
    guest.on('change', (snap) => seen.push(snap.takingCallBack));
    await guest.call('video');
    await settle();
    expect(guest.snapshot.phase).toBe('waiting');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((taking) => !taking)).toBe(true);
  });
});
