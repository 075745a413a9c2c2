/**
 * A hang-up pressed while the network is gone reaches the server when it returns (guest/timestampDelivery.ts,
 * docs/protocol.md "End"), and a guest whose call ended is in no room, so a reconnection does not count it
 * back into its call (the server's vanished-guest rule sees it gone).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/http.ts';
import type { TimestampFlag } from '../src/api/guestApi.ts';
import { ATTEMPT_TIMEOUT_MS, FIRST_RETRY_MS, MAX_RETRY_MS } from '../src/guest/timestampDelivery.ts';
import { ASSIGNMENT_ROOM, FakeWorld, settle, type FakeSignalling } from './helpers/fakes.ts';
import { inCall } from './helpers/participants.ts';

type Sent = { callId: string; flags: TimestampFlag[]; beacon: boolean; ok: boolean };

/** A guest in a call whose report API answers as `answer` says (the network gone: status 0). */
async function callWithNetwork(world: FakeWorld) {
  const setup = await inCall(world);
  const sent: Sent[] = [];
  const network = { up: true, answer: null as ApiError | null };
  setup.api.updateTimestamp = (callId, flags, options) => {
    const failure = !network.up ? new ApiError(0, 'Failed to fetch', 'Network Error') : network.answer;
    sent.push({ callId, flags: [...flags], beacon: !!options?.beacon, ok: !failure });
    return failure ? Promise.reject(failure) : Promise.resolve();
  };
  const session = world.xmpp.sessions.find((s) => s.jid === 'guest1@lobby.test') as FakeSignalling;
  return { ...setup, sent, network, session };
}

const END: TimestampFlag[] = ['guest_exit_timestamp', 'call_ended_timestamp'];

async function advance(world: FakeWorld, ms: number): Promise<void> {
  world.clock.advance(ms);
  await settle();
}

describe('the end of a call reaches the server', () => {
  it('when the guest hangs up offline, then the end request is sent again with a growing delay until it is acknowledged, and no more after', async () => {
    const world = new FakeWorld();
    const { guest, sent, network, callId } = await callWithNetwork(world);
    network.up = false;

    await guest.hangup();
    await settle();
    expect(guest.snapshot.phase).toBe('ended');
    expect(sent).toEqual([{ callId, flags: END, beacon: false, ok: false }]);

    // 1 s, 2 s, 4 s, 8 s, then every 8 s while the network is gone
    await advance(world, FIRST_RETRY_MS);
    await advance(world, 2 * FIRST_RETRY_MS);
    await advance(world, 4 * FIRST_RETRY_MS);
    await advance(world, MAX_RETRY_MS);
    expect(sent.length).toBe(5);
    await advance(world, MAX_RETRY_MS - 1);
    expect(sent.length).toBe(5);

    network.up = true;
    await advance(world, 1);
    expect(sent.length).toBe(6);
    expect(sent.at(-1)).toEqual({ callId, flags: END, beacon: false, ok: true });

    await advance(world, 10 * MAX_RETRY_MS);
    expect(sent.length, 'nothing more once acknowledged').toBe(6);
  });

  it('when the network comes back (the XMPP stream reconnects), then the pending end is sent at once', async () => {
    const world = new FakeWorld();
    const { guest, sent, network, session, callId } = await callWithNetwork(world);
    network.up = false;
    world.xmpp.cut(session);
    await guest.hangup();
    await advance(world, FIRST_RETRY_MS);
    expect(sent.map((s) => s.ok)).toEqual([false, false]);

    network.up = true;
    world.xmpp.back([session]);
    await settle();
    expect(sent.at(-1)).toEqual({ callId, flags: END, beacon: false, ok: true });
    expect(sent.length).toBe(3);
  });

  it('when the page is left before the end was acknowledged, then it goes as a keepalive request and the retries stop', async () => {
    const world = new FakeWorld();
    const { guest, sent, network, callId } = await callWithNetwork(world);
    network.up = false;
    await guest.hangup();
    network.up = true; // the keepalive request is what the browser sends after the page

    guest.pageHide();
    expect(sent.at(-1)).toEqual({ callId, flags: END, beacon: true, ok: true });
    const count = sent.length;
    await advance(world, 5 * MAX_RETRY_MS);
    expect(sent.length).toBe(count);
  });

  it('when a request hangs (a cut network drops it, nothing answers), then it is given up on and sent again', async () => {
    const world = new FakeWorld();
    const { guest, api, callId } = await callWithNetwork(world);
    const sent: number[] = [];
    api.updateTimestamp = () => {
      sent.push(world.clock.now());
      return sent.length === 1 ? new Promise<void>(() => undefined) : Promise.resolve();
    };
    await guest.hangup();
    await advance(world, ATTEMPT_TIMEOUT_MS - 1);
    expect(sent).toHaveLength(1);
    await advance(world, 1);
    await advance(world, FIRST_RETRY_MS);
    expect(sent).toHaveLength(2);
    await advance(world, 5 * MAX_RETRY_MS);
    expect(sent, 'acknowledged: no more').toHaveLength(2);
    expect(callId).toBeTruthy();
  });

  it('when the server refuses the request (404: not this guest\'s call), then it is not sent again', async () => {
    const world = new FakeWorld();
    const { guest, sent, network } = await callWithNetwork(world);
    network.answer = new ApiError(404, 'call_id: no such call', 'Not Found');
    await guest.hangup();
    await advance(world, 5 * MAX_RETRY_MS);
    expect(sent.length).toBe(1);
  });

  it('when the server answers 503 once, then the request is sent again', async () => {
    const world = new FakeWorld();
    const { guest, sent, network } = await callWithNetwork(world);
    network.answer = new ApiError(503, 'busy', 'Service Unavailable');
    await guest.hangup();
    network.answer = null;
    await advance(world, FIRST_RETRY_MS);
    expect(sent.map((s) => s.ok)).toEqual([false, true]);
  });
});

describe('the guest\'s room after its call', () => {
  it('when the guest hung up and its XMPP stream reconnects, then it does not join its room again; its next call does', async () => {
    const world = new FakeWorld();
    const { guest, session } = await callWithNetwork(world);
    await guest.hangup();
    await settle();
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'left at the end').toBeNull();

    world.xmpp.cut(session);
    world.xmpp.back([session]);
    await settle();
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1'), 'not back after the reconnection').toBeNull();

    await guest.call('video');
    await settle();
    expect(guest.snapshot.phase).toBe('waiting');
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBe(`OpenCall||${guest.snapshot.callId}`);
  });

  it('when the guest hung up offline (the stream already down), then the reconnection brings it back to no room', async () => {
    const world = new FakeWorld();
    const { guest, session, network } = await callWithNetwork(world);
    network.up = false;
    world.xmpp.cut(session);
    await guest.hangup();
    network.up = true;
    world.xmpp.back([session]);
    await settle();
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toBeNull();
    expect(session.joined.size).toBe(0);
  });
});
