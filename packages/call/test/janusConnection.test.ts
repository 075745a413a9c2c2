/**
 * The Janus connection of a media session (src/media/janus/connection.ts) on a fake janus.js and the
 * ports' fake clock: fail-over between endpoints (docs/protocol.md "Media session"), the session claimed
 * back when its transport drops ("Session reclaim"), and requests that never get an answer.
 */
import { describe, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS, JanusConnection, REQUEST_TIMEOUT_MS } from '../src/media/janus/connection.ts';
import type { Handle } from '../src/media/janus/library.ts';
import { FakeClock, settle } from './helpers/fakes.ts';
import { FakeJanusServer, recordedEvents } from './helpers/fakeJanusSession.ts';

const WS = 'wss://lobby.test/janus';
const HTTP = 'https://lobby.test/janus-http';

function connection(server: FakeJanusServer, clock = new FakeClock()) {
  const { tell, events } = recordedEvents();
  const made = new JanusConnection({ servers: [WS, HTTP], attempts: 1, clock, tell, load: () => Promise.resolve(server.library()) });
  return { connection: made, events, clock };
}

describe('Janus connection', () => {
  it('when the websocket endpoint refuses, then the HTTP fallback is used in the same round, without a retry told', async () => {
    const server = new FakeJanusServer();
    server.endpoints.set(WS, 'refuses');
    const { connection: janus, events } = connection(server);

    await janus.connect();

    expect(janus.connected).toBe(true);
    expect(server.sessions.map((s) => s.server)).toEqual([WS, HTTP]);
    expect(events).toEqual([]);
  });

  it('when the websocket endpoint stays silent, then the fallback is tried once the connect timeout passes on the clock', async () => {
    const server = new FakeJanusServer();
    server.endpoints.set(WS, 'silent');
    const { connection: janus, clock } = connection(server);

    const connecting = janus.connect();
    await settle(2);
    expect(server.sessions.map((s) => s.server)).toEqual([WS]);
    clock.advance(CONNECT_TIMEOUT_MS - 1);
    await settle(2);
    expect(server.sessions).toHaveLength(1);
    clock.advance(1);
    await connecting;

    expect(server.sessions.map((s) => s.server)).toEqual([WS, HTTP]);
    expect(janus.connected).toBe(true);
  });

  it('when the transport drops, then the session is claimed on a new one and reconnecting then reconnected are told', async () => {
    const server = new FakeJanusServer();
    const { connection: janus, events } = connection(server);
    await janus.connect();

    server.dropTransport();
    await settle();

    expect(server.claims).toBe(1);
    expect(events.map(([event]) => event)).toEqual(['reconnecting', 'reconnected']);
  });

  it('when Janus answers a claim without the session, then it is lost', async () => {
    const server = new FakeJanusServer();
    server.claim = 'gone';
    const { connection: janus, events } = connection(server);
    await janus.connect();

    server.dropTransport();
    await settle();

    expect(events.map(([event]) => event)).toEqual(['reconnecting', 'lost']);
    expect(String((events[1]![1] as { error: string }).error)).toContain('No such session');
  });

  it('when claims fail because Janus is unreachable, then each failure is told with its count before the next claim, until one succeeds', async () => {
    const server = new FakeJanusServer();
    server.claim = 'down';
    const { connection: janus, events, clock } = connection(server);
    await janus.connect();

    server.dropTransport();
    await vi.waitFor(() => expect(server.claims).toBe(1));
    await settle();
    clock.advance(500); // the wait before the second claim
    await vi.waitFor(() => expect(server.claims).toBe(2));
    server.claim = 'ok';
    await settle();
    clock.advance(1000);
    await vi.waitFor(() => expect(events.at(-1)?.[0]).toBe('reconnected'));

    expect(events.map(([event, payload]) => (event === 'claimFailed' ? [event, (payload as { attempt: number }).attempt] : [event]))).toEqual([
      ['reconnecting'],
      ['claimFailed', 1],
      ['claimFailed', 2],
      ['reconnected'],
    ]);
  });

  it('when the next claim is asked for at once (a refused move), then it is made without waiting on the clock, and the later waits are kept', async () => {
    const server = new FakeJanusServer();
    server.claim = 'down';
    const { connection: janus, events, clock } = connection(server);
    await janus.connect();

    server.dropTransport();
    await vi.waitFor(() => expect(events.at(-1)?.[0]).toBe('claimFailed'));
    janus.claimNow(); // the clock has not moved: without it the second claim waits 500 ms
    await vi.waitFor(() => expect(server.claims).toBe(2));
    await vi.waitFor(() => expect(events.filter(([event]) => event === 'claimFailed')).toHaveLength(2));
    await settle(5);
    expect(server.claims).toBe(2); // the third waits for its time again
    clock.advance(1000);
    await vi.waitFor(() => expect(server.claims).toBe(3));
    janus.destroy().catch(() => undefined);
  });

  it('when it is destroyed while a claim is under way and the claim then succeeds, then the session claimed back is destroyed again and nothing is told', async () => {
    const server = new FakeJanusServer();
    let answerClaim: () => void = () => undefined;
    server.claimGate = new Promise<void>((resolve) => (answerClaim = resolve));
    const { connection: janus, events } = connection(server);
    await janus.connect();
    server.dropTransport();
    await settle();
    expect(server.claims).toBe(1);

    await janus.destroy();
    expect(server.sessions[0]!.destroys).toBe(1);
    answerClaim();
    await settle();

    // the first destroy found the transport down (janus.js only forgets the session then); the claim's
    // success connected it again, so it is destroyed once more, on Janus this time
    expect(server.sessions[0]!.destroys).toBe(2);
    expect(events.map(([event]) => event)).toEqual(['reconnecting']);
  });

  it('when a request gets no answer, then it fails with a timeout after REQUEST_TIMEOUT_MS on the clock', async () => {
    const server = new FakeJanusServer();
    server.answer = () => null;
    const { connection: janus, clock } = connection(server);
    await janus.connect();
    const handle = await janus.attach('publisher', {});

    const request = janus.request(handle, { request: 'join' });
    const outcome = request.then(() => 'answered', (error: Error) => error.message);
    clock.advance(REQUEST_TIMEOUT_MS - 1);
    await settle(2);
    const before = await Promise.race([outcome, Promise.resolve('pending')]);
    clock.advance(1);

    expect(before).toBe('pending');
    expect(await outcome).toBe('Request timed out (join)');
  });

  it('when it is handed a grant, then its handles and the next attached speak with the room token', async () => {
    const server = new FakeJanusServer();
    const { connection: janus } = connection(server);
    await janus.connect();
    const publisher = (await janus.attach('publisher', {})) as Handle & { token?: string };

    janus.useGrant('room-token', undefined);
    const screen = (await janus.attach('screen', {})) as Handle & { token?: string };

    expect(publisher.token).toBe('room-token');
    expect(screen.token).toBe('room-token');
  });

  it('when it is destroyed, then the session ends and no claim follows a late drop', async () => {
    const server = new FakeJanusServer();
    const { connection: janus, events } = connection(server);
    await janus.connect();

    await janus.destroy();
    server.dropTransport();
    await settle();

    expect(server.sessions[0]!.destroyed).toBe(true);
    expect(janus.connected).toBe(false);
    expect(server.claims).toBe(0);
    expect(events).toEqual([]);
  });
});
