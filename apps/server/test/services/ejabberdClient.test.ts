/**
 * The busiest hour: at 2,000 waiting guests, 2 registrations and 81 churn arrivals were refused
 * with 503 because ejabberd's HTTP API answered a provisioning call after the server's time limit. The
 * client now queues its calls (a few in flight) and tries a call again when it timed out, could not
 * connect or got a 5xx; every provisioning call is idempotent. A local HTTP server plays ejabberd's API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEjabberdHttpClient } from '../../src/services/ejabberd.ts';

interface FakeApi {
  url: string;
  calls: string[];
  maxInFlight: number;
  close: () => Promise<void>;
}

/** `answer(command, n)`: how the n-th call (1-based, all commands) is answered; 'hang' never answers. */
async function fakeApi(answer: (command: string, n: number) => { status: number; body: string; delayMs?: number } | 'hang'): Promise<FakeApi> {
  const api: FakeApi = { url: '', calls: [], maxInFlight: 0, close: () => Promise.resolve() };
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const command = req.url!.split('/').pop()!;
    api.calls.push(command);
    inFlight++;
    api.maxInFlight = Math.max(api.maxInFlight, inFlight);
    req.resume();
    const a = answer(command, api.calls.length);
    if (a === 'hang') {
      res.on('close', () => inFlight--);
      return;
    }
    setTimeout(() => {
      inFlight--;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    }, a.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  api.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return api;
}

const room = (name: string) => ({ name, title: 'Sales', members: ['g1@guest.lobby.local'], admins: ['agent-18@lobby.local'] });

describe('ejabberd HTTP client: provisioning under load', () => {
  let api: FakeApi | undefined;
  afterEach(async () => api?.close());

  it('when ejabberd answers a room creation after the time limit, then it is asked again and the room is provisioned', async () => {
    api = await fakeApi((command, n) => (command === 'create_room_with_opts' && n === 1 ? 'hang' : { status: 200, body: '0' }));
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', timeoutMs: 200, retryDelayMs: 10 });

    await expect(client.ensureRoom(room('a1-g1'))).resolves.toBeUndefined();
    expect(api.calls.filter((c) => c === 'create_room_with_opts')).toHaveLength(2);
    expect(api.calls.filter((c) => c === 'set_room_affiliation')).toHaveLength(2);
  });

  it('when the first creation did create the room before timing out, then the retry accepts "Room already exists"', async () => {
    api = await fakeApi((command, n) =>
      command !== 'create_room_with_opts'
        ? { status: 200, body: '0' }
        : n === 1
          ? { status: 200, body: '0', delayMs: 400 }
          : { status: 400, body: '{"status":"error","code":1,"message":"Room already exists"}' },
    );
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', timeoutMs: 200, retryDelayMs: 10 });

    await expect(client.ensureRoom(room('a1-g2'))).resolves.toBeUndefined();
  });

  it('when an affiliation gets a 5xx, then it is set again; a 4xx is not tried again', async () => {
    let affiliations = 0;
    api = await fakeApi((command) => {
      if (command !== 'set_room_affiliation') return { status: 200, body: '0' };
      affiliations++;
      return affiliations === 1 ? { status: 503, body: 'busy' } : { status: 200, body: '0' };
    });
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', retryDelayMs: 10 });
    await expect(client.ensureRoom(room('a1-g3'))).resolves.toBeUndefined();
    expect(affiliations).toBe(3);
    await api.close();

    api = await fakeApi((command) =>
      command === 'set_room_affiliation' ? { status: 400, body: "Room doesn't exists" } : { status: 200, body: '0' },
    );
    const refused = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', retryDelayMs: 10 });
    // one affiliation only: the refusal then comes after that call's every try, so the count is exact (with
    // two, the first refusal ends ensureRoom while the other call may still be on its way)
    await expect(refused.ensureRoom({ ...room('a1-g4'), members: [] })).rejects.toThrow(/400/);
    expect(api.calls.filter((c) => c === 'set_room_affiliation')).toHaveLength(1);
  });

  it('when ejabberd never answers, then provisioning fails after its tries (the route answers 503)', async () => {
    api = await fakeApi(() => 'hang');
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', timeoutMs: 100, retryDelayMs: 10, attempts: 3 });
    await expect(client.ensureRoom(room('a1-g5'))).rejects.toThrow();
    expect(api.calls).toEqual(['create_room_with_opts', 'create_room_with_opts', 'create_room_with_opts']);
  });

  it('when 50 registrations provision at once, then at most maxInFlight calls reach ejabberd together and every room is made', async () => {
    api = await fakeApi(() => ({ status: 200, body: '0', delayMs: 5 }));
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local', maxInFlight: 4 });

    await Promise.all(Array.from({ length: 50 }, (_, i) => client.ensureRoom(room(`a1-g${100 + i}`))));
    expect(api.calls).toHaveLength(150);
    expect(api.maxInFlight).toBeLessThanOrEqual(4);
    expect(api.maxInFlight).toBe(4);
    // the health check is not queued behind provisioning
    expect(await client.status()).toBe(true);
  });

  it('when the server asks who is in the guests\' rooms and whether a guest is online, then one call each answers it, and a failure is "cannot say"', async () => {
    api = await fakeApi((command) => {
      if (command === 'lobby_room_guests') return { status: 200, body: JSON.stringify([{ room: 'a1-g1', user: 'g1' }, { room: 'a2-g2', user: 'g2' }]) };
      if (command === 'user_resources') return { status: 200, body: JSON.stringify(['web']) };
      return { status: 500, body: 'no' };
    });
    const client = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local' });

    expect(await client.roomGuests()).toEqual([
      { room: 'a1-g1', user: 'g1' },
      { room: 'a2-g2', user: 'g2' },
    ]);
    expect(await client.guestOnline('g1')).toBe(true);
    expect(api.calls).toEqual(['lobby_room_guests', 'user_resources']);
    await api.close();
    api = await fakeApi(() => ({ status: 500, body: 'down' }));
    const down = createEjabberdHttpClient({ apiUrl: api.url, host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'muc.lobby.local' });
    expect(await down.roomGuests()).toBeNull();
    expect(await down.guestOnline('g1')).toBeNull();
  });
});
