/**
 * The guest's registration (GuestCall.prepare): a 503 (ejabberd did not create the guest's rooms in time,
 * a busy hour) is asked again; any other refusal is final and shown at once.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/http.ts';
import { GuestCall } from '../src/guest/guestCall.ts';
import { FakeWorld, createFakeGuestApi, settle } from './helpers/fakes.ts';

function guestWith(world: FakeWorld, failures: ApiError[]) {
  const api = createFakeGuestApi('guest1');
  const register = api.register.bind(api);
  let calls = 0;
  api.register = (guestId, companyId) => {
    const failure = failures[calls++];
    return failure ? Promise.reject(failure) : register(guestId, companyId);
  };
  const guest = new GuestCall({ api, companyId: 1, xmppWsUrl: 'ws://xmpp.test', janusServers: ['ws://janus.test'], ports: world.ports() });
  return { guest, calls: () => calls };
}

describe('guest registration', () => {
  it('when registering answers 503 twice, then the guest registers on the third try and is ready', async () => {
    const world = new FakeWorld();
    const { guest, calls } = guestWith(world, [new ApiError(503, 'rooms'), new ApiError(503, 'rooms')]);
    await guest.prepare('guest-id-1');
    expect(calls()).toBe(3);
    expect(guest.snapshot.phase).toBe('ready');
  }, 10_000);

  it('when registering is refused for another reason, then it is not asked again and the guest fails at once', async () => {
    const world = new FakeWorld();
    const { guest, calls } = guestWith(world, [new ApiError(409, 'company is not activated')]);
    await expect(guest.prepare('guest-id-1')).rejects.toThrow();
    expect(calls()).toBe(1);
    expect(guest.snapshot.phase).toBe('failed');
  });

  it('when the guest\'s API token nears its expiry, then it registers again for a new one, and again before that one expires', async () => {
    const world = new FakeWorld();
    const { guest, calls } = guestWith(world, []);
    await guest.prepare('guest-id-1');
    expect(calls()).toBe(1);
    // the fake registration's token lasts 3600 s: renewed at 80 %
    world.clock.advance(2_800_000);
    await Promise.resolve();
    expect(calls()).toBe(1);
    world.clock.advance(100_000);
    await settle();
    expect(calls()).toBe(2);
    world.clock.advance(2_880_000);
    await settle();
    expect(calls()).toBe(3);
    // closed: no more renewals
    await guest.close();
    world.clock.advance(10_000_000);
    await settle();
    expect(calls()).toBe(3);
  });
});
