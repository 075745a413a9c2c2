/**
 * A guest whose page is replaced by the next page of the website that embeds it (docs/widget.md "Moving
 * between pages"): the page says Navigating and goes; the next page takes the same call back. The agent
 * of an answered call stays in it, and a waiting call keeps its place in the queue.
 */
import { describe, expect, it } from 'vitest';
import { FakeSignalling, FakeWorld, settle } from './helpers/fakes.ts';
import { agentOnline, guestReady, guestWaiting, inCall } from './helpers/participants.ts';
import { NAVIGATION_RETURN_MS } from '../src/agent/reconnection.ts';

describe('the guest changes page and the next page takes its call back', () => {
  it('when an answered call\u2019s page changes, then the agent stays in the call and gets the guest\u2019s media again from the next page', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const username = guest.snapshot.username!;
    const room = agent1.agent.snapshot.activeCall!.room;

    const saved = guest.pageChange();
    expect(saved).toEqual({ callId, initialCallId: callId, kind: 'video', answered: true });
    await settle();
    // the page goes: its media leaves the call's room, then its XMPP session leaves the guest room
    world.media.drop(callId, username);
    world.xmpp.leave(room, username);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);

    const next = await guestReady(world);
    let reports = 0;
    next.api.addReport = () => Promise.resolve({ id: 2, status: 'ok' as const, ...{ reported: ++reports } });
    await next.guest.call(saved!.kind, saved!);
    await settle();
    expect(next.guest.snapshot.callId).toBe(callId);
    expect(next.guest.snapshot.phase).toBe('ongoing');
    // the call's report, its start and its answer are the ones it had: nothing reported again
    expect(reports).toBe(0);
    expect(next.api.timestamps.flatMap((t) => t.flags)).toEqual([]);
    world.clock.advance(30_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toContain(username);
  });

  it('when the next page publishes before the previous page\u2019s camera has left, then the agent stays in the call when that camera goes', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const username = guest.snapshot.username!;
    const room = agent1.agent.snapshot.activeCall!.room;
    const saved = guest.pageChange();
    await settle();
    world.xmpp.leave(room, username);
    const next = await guestReady(world);
    await next.guest.call(saved!.kind, saved!);
    await settle();
    // the old page's camera goes last, after the next page's presence (no status yet, then InCall)
    const old = world.media.publishers(callId).length;
    expect(old).toBeGreaterThan(1);
    world.media.unpublish(callId, agent1.agent.snapshot.remoteFeeds.find((f) => f.display === username)!.feedId);
    await settle();
    world.clock.advance(30_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.remoteFeeds.filter((f) => f.display === username)).toHaveLength(1);
  });

  it('when an answered call\u2019s guest media leaves without the page saying Navigating, then the agent\u2019s call ends as before', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    world.media.drop(callId, guest.snapshot.username!);
    await settle();
    expect(agent1.agent.snapshot.activeCall).toBeNull();
  });

  it('when a waiting guest\u2019s page changes, then its call comes back to the queue in its place, ahead of a later guest', async () => {
    const world = new FakeWorld();
    const { agent } = await agentOnline(world, 'agent1');
    const { guest } = await guestWaiting(world);
    const callId = guest.snapshot.callId!;
    const room = agent.snapshot.queue[0]!.room;
    world.clock.advance(5_000);
    const later = new FakeSignalling(world.xmpp, { jid: 'g2@guest.lobby.test' } as ConstructorParameters<typeof FakeSignalling>[1]);
    await later.connect();
    world.xmpp.join(later, 'assignment-1@conference.lobby.test', 'g2', 'OpenCall||g2--later', { userType: 'guest', appointmentID: '' });
    await settle();
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId, 'g2--later']);

    const saved = guest.pageChange();
    await settle();
    world.xmpp.leave(room, guest.snapshot.username!);
    world.media.drop(callId, guest.snapshot.username!);
    await settle();
    // the agent sees the guest changing page, still waiting in its place, not gone
    expect(agent.snapshot.queue.map((e) => [e.callId, e.navigating ?? false])).toEqual([
      [callId, true],
      ['g2--later', false],
    ]);
    world.clock.advance(3_000);
    const next = await guestReady(world);
    await next.guest.call(saved!.kind, saved!);
    await settle();
    expect(next.guest.snapshot.phase).toBe('waiting');
    expect(agent.snapshot.queue.map((e) => [e.callId, e.navigating ?? false])).toEqual([
      [callId, false],
      ['g2--later', false],
    ]);
  });

  it('when a navigating waiting guest’s next page never comes, then its entry leaves the queue after the navigation wait', async () => {
    const world = new FakeWorld();
    const { agent } = await agentOnline(world, 'agent1');
    const { guest } = await guestWaiting(world);
    const callId = guest.snapshot.callId!;
    guest.pageChange();
    await settle();
    // the page is gone, and its stream with it (a page left in its room would find itself out by its
    // self-ping and join again)
    world.xmpp.cut(world.xmpp.sessions.find((s) => s.jid.startsWith(`${guest.snapshot.username!}@`))!);
    await settle();
    expect(agent.snapshot.queue.map((e) => [e.callId, e.navigating])).toEqual([[callId, true]]);
    world.clock.advance(NAVIGATION_RETURN_MS - 1_000);
    await settle();
    expect(agent.snapshot.queue).toHaveLength(1);
    world.clock.advance(2_000);
    await settle();
    expect(agent.snapshot.queue).toEqual([]);
  });

  it('when the website says its page is about to go but it stays, then the agents hear Navigating and then the call\u2019s own status again', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const room = agent1.agent.snapshot.activeCall!.room;
    guest.pageLeaving();
    await settle();
    expect(world.xmpp.statusOf(room, guest.snapshot.username!)).toMatch(/^Navigating\|/);
    world.clock.advance(5_000);
    await settle();
    expect(world.xmpp.statusOf(room, guest.snapshot.username!)).toBe(`InCall|${agent1.jid}|${callId}`);
    // its media leaving now is the guest leaving: the call ends at once
    world.media.drop(callId, guest.snapshot.username!);
    await settle();
    expect(agent1.agent.snapshot.activeCall).toBeNull();
  });

  it('when a widget panel guest\u2019s page goes in a call without its Navigating reaching the agent, then the agent waits for it and gets its media back from the next page', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world, { pageChanges: true });
    const username = guest.snapshot.username!;
    const room = agent1.agent.snapshot.activeCall!.room;
    // the page is torn down before its Navigating is sent: only its media and its presence go
    world.media.drop(callId, username);
    world.xmpp.leave(room, username);
    await settle();
    world.clock.advance(NAVIGATION_RETURN_MS - 5_000);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    const next = await guestReady(world, { pageChanges: true });
    await next.guest.call('video', { callId, initialCallId: callId, answered: true });
    await settle();
    expect(next.guest.snapshot.phase).toBe('ongoing');
    world.clock.advance(NAVIGATION_RETURN_MS);
    await settle();
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toContain(username);
  });

  it('when a widget panel guest\u2019s page goes while waiting without its Navigating, then the queue shows it navigating in its place', async () => {
    const world = new FakeWorld();
    const { agent } = await agentOnline(world, 'agent1');
    const { guest } = await guestWaiting(world, { pageChanges: true });
    const callId = guest.snapshot.callId!;
    const room = agent.snapshot.queue[0]!.room;
    world.xmpp.leave(room, guest.snapshot.username!);
    world.media.drop(callId, guest.snapshot.username!);
    await settle();
    expect(agent.snapshot.queue.map((e) => [e.callId, e.navigating])).toEqual([[callId, true]]);
  });

  it('when a widget panel guest cancels while waiting, then its call leaves the queue at once, not kept as a page change', async () => {
    const world = new FakeWorld();
    const { agent } = await agentOnline(world, 'agent1');
    const { guest } = await guestWaiting(world, { pageChanges: true });
    expect(agent.snapshot.queue).toHaveLength(1);
    await guest.hangup();
    await settle();
    expect(agent.snapshot.queue).toEqual([]);
  });
});
