/**
 * The desk's small features on their own: its availability for round robin (src/agent/availability.ts), the
 * standby hand-over made ahead while calls wait (src/agent/mediaWarmup.ts) and the streams coming back
 * (src/agent/reconnection.ts) on the fake clock.
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleAvailabilityBody } from '@lobby/contracts';
import { Availability } from '../src/agent/availability.ts';
import { MediaWarmup } from '../src/agent/mediaWarmup.ts';
import { GUEST_RETURN_MS, Reconnection } from '../src/agent/reconnection.ts';
import { FakeClock, FakeWorld, createFakeConsoleApi, settle, type FakeSignalling } from './helpers/fakes.ts';

describe('availability for round robin', () => {
  it('when away or busy changes, then the server is told once per change, nothing while offline, and again after a failed telling', async () => {
    const told: ConsoleAvailabilityBody[] = [];
    let fail = false;
    let online = false;
    const availability = new Availability(
      { setAvailability: (body) => (told.push(body), fail ? Promise.reject(new Error('offline')) : Promise.resolve()) },
      () => online,
    );
    availability.tell(false);
    expect(told).toEqual([]);
    online = true;
    availability.tell(false);
    availability.tell(false);
    availability.setAway(true, false);
    availability.tell(true);
    expect(told).toEqual([
      { availability: 'available', busy: false },
      { availability: 'away', busy: false },
      { availability: 'away', busy: true },
    ]);
    fail = true;
    availability.setAway(false, true);
    await settle();
    fail = false;
    availability.tell(true); // the same body: told again, the last telling failed
    expect(told).toHaveLength(5);
  });
});

describe('the standby hand-over', () => {
  it('when calls wait and the agent is free, then the media connection and a standby session are asked with our ICE servers and standby token; its readiness is told; offline, it ends', async () => {
    const world = new FakeWorld();
    const ports = world.ports();
    const api = createFakeConsoleApi('agent1@lobby.test');
    const xmpp = ports.signalling({ wsUrl: 'ws://xmpp.test', jid: 'agent1@lobby.test', credential: 'x' }) as FakeSignalling;
    let wanted = false;
    const ready: boolean[] = [];
    const warmup = new MediaWarmup({ ports, api, janusServers: ['ws://janus.test'], signalling: () => xmpp, wanted: () => wanted, ready: (r) => void ready.push(r) });
    warmup.update();
    expect(world.warmed).toEqual([]);
    wanted = true;
    warmup.update();
    expect(world.warmed).toEqual([['ws://janus.test']]);
    const request = world.standbyRequests[0]!;
    expect(request.iceServers).toEqual(xmpp.iceServers);
    expect(await request.token()).toEqual({ token: 'standby-agent1@lobby.test', expires_in: 3600 });
    request.onReady?.(true);
    expect(ready).toEqual([true]);
    expect(request.wanted?.()).toBe(true);
    wanted = false;
    expect(request.wanted?.()).toBe(false);
    warmup.cool();
    expect(world.cooled).toBe(1);

    // without a standby token in the API: the connection only
    new MediaWarmup({ ports, api: {}, janusServers: ['ws://janus.test'], signalling: () => xmpp, wanted: () => true, ready: () => undefined }).update();
    expect(world.warmed).toHaveLength(2);
    expect(world.standbyRequests).toHaveLength(1);
  });
});

describe('the streams coming back', () => {
  function reconnectionOf() {
    const clock = new FakeClock();
    const state = { live: false, activeCallId: 'guest1--c1' as string | null, connected: true, guestIn: false, rejoins: 0, gone: 0 };
    const reconnection = new Reconnection({
      clock,
      live: () => state.live,
      setLive: (live) => (state.live = live),
      rejoinRooms: () => void state.rejoins++,
      activeCallId: () => state.activeCallId,
      signallingConnected: () => state.connected,
      guestInRoom: () => state.guestIn,
      guestGone: () => void state.gone++,
    });
    return { clock, state, reconnection };
  }

  it('when the event stream comes back after a loss, then the rooms are joined again; its first opening does not', () => {
    const { state, reconnection } = reconnectionOf();
    reconnection.onLive(true);
    expect(state.rejoins).toBe(0);
    reconnection.onLive(false);
    expect(state.live).toBe(false);
    reconnection.onLive(true);
    reconnection.onLive(true);
    expect(state.rejoins).toBe(1);
  });

  it('when our call\'s guest is away from its room, then the call ends after GUEST_RETURN_MS unless it came back, the call changed, or our own stream is down', () => {
    const call = { callId: 'guest1--c1', room: 'r', guestNick: 'guest1' };
    const away = reconnectionOf();
    away.reconnection.awaitGuest(call);
    away.clock.advance(GUEST_RETURN_MS - 1);
    expect(away.state.gone).toBe(0);
    away.clock.advance(1);
    expect(away.state.gone).toBe(1);

    const back = reconnectionOf();
    back.reconnection.awaitGuest(call);
    back.state.guestIn = true;
    back.clock.advance(GUEST_RETURN_MS);
    expect(back.state.gone).toBe(0);

    const ended = reconnectionOf();
    ended.reconnection.awaitGuest(call);
    ended.state.activeCallId = null;
    ended.clock.advance(GUEST_RETURN_MS);
    const down = reconnectionOf();
    down.reconnection.awaitGuest(call);
    down.state.connected = false;
    down.clock.advance(GUEST_RETURN_MS);
    expect(ended.state.gone + down.state.gone).toBe(0);
  });
});
