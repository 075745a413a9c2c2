/**
 * The guest's page going (src/guest/pageLeaving.ts, docs/widget.md "Moving between pages"), on its own: a
 * PageLeaving over the guest's real room presence on a session of the fake XMPP server, its timestamps'
 * delivery sending into a recording API and the fake clock. The next page taking the call back is in
 * pageChange.test.ts; a page left with a hang-up still pending in endDelivery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { NAVIGATION_CANCELLED_MS, PageLeaving } from '../src/guest/pageLeaving.ts';
import { GuestRoomPresence, type PresenceCallView } from '../src/guest/roomPresence.ts';
import { TimestampDelivery } from '../src/guest/timestampDelivery.ts';
import type { TimestampFlag } from '../src/api/guestApi.ts';
import type { GuestCallSnapshot } from '../src/guest/guestSnapshot.ts';
import { initialCallStatus } from '../src/state/callStatus.ts';
import { ASSIGNMENT_ROOM, FakeEnvironment, FakeWorld, settle, type FakeSignalling } from './helpers/fakes.ts';

type Call = PresenceCallView & Pick<GuestCallSnapshot, 'phase' | 'initialCallId'>;
type Sent = { callId: string; flags: TimestampFlag[]; beacon: boolean };

/** A guest in its room with `call`; its timestamps' requests recorded (`answer` false: they hang unanswered). */
async function guestPage(world: FakeWorld, call: Call) {
  const session = world.xmpp.factory({ wsUrl: 'ws://xmpp.test', jid: 'guest1@lobby.test', credential: 'c' }) as FakeSignalling;
  await session.connect();
  const presence = new GuestRoomPresence({
    environment: new FakeEnvironment(),
    signalling: () => session,
    room: () => ASSIGNMENT_ROOM,
    username: () => 'guest1',
    call: () => call,
    appointment: () => null,
    roundRobin: false,
    pageVisible: () => undefined,
  });
  await presence.join();
  presence.announce();
  await settle();
  const sent: Sent[] = [];
  const network = { answer: true };
  const delivery = new TimestampDelivery((callId, flags, options) => {
    sent.push({ callId, flags: [...flags], beacon: !!options?.beacon });
    return network.answer ? Promise.resolve() : new Promise<void>(() => undefined);
  }, world.clock);
  const page = new PageLeaving({ clock: world.clock, presence, delivery, call: () => call });
  const status = () => world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1');
  return { page, delivery, sent, network, status };
}

function aCall(phase: Call['phase'], initialCallId: string | null = null): Call {
  return { phase, callId: 'call-2', initialCallId, callKind: 'voice', muted: { audio: false, video: false }, status: initialCallStatus() };
}

describe('the guest\'s page going', () => {
  it('when the next page takes an answered call back, then the room hears Navigating, what the server has not acknowledged goes as keepalive requests, and the call to resume is answered', async () => {
    const world = new FakeWorld();
    const { page, delivery, sent, network, status } = await guestPage(world, aCall('ongoing', 'call-1'));
    network.answer = false;
    delivery.deliver('call-0', ['call_ended_timestamp']);

    const resumed = page.change();
    await settle();

    expect(resumed).toEqual({ callId: 'call-2', initialCallId: 'call-1', kind: 'voice', answered: true });
    expect(status()).toMatch(/^Navigating\|.*\|call-2$/);
    expect(sent).toEqual([
      { callId: 'call-0', flags: ['call_ended_timestamp'], beacon: false },
      { callId: 'call-0', flags: ['call_ended_timestamp'], beacon: true },
    ]);
    expect(delivery.pending).toEqual([]);
  });

  it('when the next page takes a waiting call back, then it is not answered and its first call id is its own', async () => {
    const world = new FakeWorld();
    const { page, sent } = await guestPage(world, aCall('waiting'));

    expect(page.change()).toEqual({ callId: 'call-2', initialCallId: 'call-2', kind: 'voice', answered: false });
    // the call stays open: the page sends no end of it
    expect(sent).toEqual([]);
  });

  it('when there is no open call to take back, then the page is left: nothing is resumed, the room hears no Navigating and what is pending goes', async () => {
    const world = new FakeWorld();
    const call = aCall('ongoing');
    const { page, delivery, sent, network, status } = await guestPage(world, call);
    const before = status();
    call.phase = 'ended';
    network.answer = false;
    delivery.deliver('call-2', ['call_ended_timestamp']);

    expect(page.change()).toBeNull();
    await settle();

    expect(status()).toBe(before);
    expect(sent.filter((s) => s.beacon)).toEqual([{ callId: 'call-2', flags: ['call_ended_timestamp'], beacon: true }]);
  });

  it('when the website says its page is about to go but it stays, then the room hears Navigating and the call\'s own status again after the wait', async () => {
    const world = new FakeWorld();
    const { page, status } = await guestPage(world, aCall('waiting'));
    const own = status();
    expect(own).toMatch(/^OpenCall\|/);

    page.leaving();
    await settle();
    expect(status()).toMatch(/^Navigating\|/);
    world.clock.advance(NAVIGATION_CANCELLED_MS - 1);
    await settle();
    expect(status()).toMatch(/^Navigating\|/);
    world.clock.advance(1);
    await settle();
    expect(status()).toBe(own);
  });

  it('when the website says its page is about to go with no call waiting or going on, then the room hears nothing', async () => {
    const world = new FakeWorld();
    const call = aCall('waiting');
    const { page, status } = await guestPage(world, call);
    const before = status();
    call.phase = 'failed';

    page.leaving();
    await settle();
    expect(status()).toBe(before);
    world.clock.advance(NAVIGATION_CANCELLED_MS);
    await settle();
    expect(status()).toBe(before);
  });

  it('when the page is left during a call, then the guest\'s exit and the call\'s end go as a keepalive request', async () => {
    const world = new FakeWorld();
    const { page, sent } = await guestPage(world, aCall('ongoing'));

    page.hide();

    expect(sent).toEqual([{ callId: 'call-2', flags: ['guest_exit_timestamp', 'call_ended_timestamp'], beacon: true }]);
  });

  it('when the page is left after the call ended or failed, then only what is still pending goes, with no second end', async () => {
    const world = new FakeWorld();
    const call = aCall('ended');
    const { page, delivery, sent, network } = await guestPage(world, call);
    network.answer = false;
    // the agent ended it: its end is still on its way
    delivery.deliver('call-2', ['call_ended_timestamp']);

    page.hide();
    call.phase = 'failed';
    page.hide();

    expect(sent.filter((s) => s.beacon)).toEqual([{ callId: 'call-2', flags: ['call_ended_timestamp'], beacon: true }]);
  });
});
