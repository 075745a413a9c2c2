/**
 * A call whose Janus stays unreachable (its node died: docs/protocol.md "Media session lost") in both
 * engines, on the fakes: after MOVE_AFTER_CLAIMS failed claims each side asks once for a `rejoin` grant
 * while the claims go on; answered, the call moves to a new session; refused (503), the claims go on and
 * their end still ends the call. One new session per side, whatever the claims do meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_SERVER_DOWN, MOVE_AFTER_CLAIMS } from '../src/media/mediaHealth.ts';
import { ApiError } from '../src/api/http.ts';
import type { MediaGrant } from '@lobby/contracts';
import { deferred, FakeWorld, grantFor, settle, type FakeConsoleApi, type FakeGuestApi } from './helpers/fakes.ts';
import { inCall } from './helpers/participants.ts';

const UNREACHABLE = 'Lost connection to the server (is it down?)';
const noNode = () => Object.assign(new Error('janus: no Janus node answers to make the media room again'), { status: 503 });

/** Both sides' rejoin grants answer as `answer` says (the first grants, made before, are left alone). */
function rejoinGrants(apis: Array<FakeGuestApi | FakeConsoleApi>, answer: (callId: string) => Promise<MediaGrant>): void {
  for (const api of apis) {
    const grant = api.mediaGrant.bind(api);
    api.mediaGrant = (callId: string, options?: { rejoin?: boolean; webview?: boolean }) => {
      if (!options?.rejoin) return grant(callId, options);
      api.rejoins.push(callId);
      return answer(callId);
    };
  }
}

/** A call whose sessions are `before`; both sides' rejoin grants wait for `held`, then are answered. */
async function callWithHeldMoves() {
  const world = new FakeWorld();
  const call = await inCall(world);
  const before = world.media.members(call.callId);
  const held = deferred<void>();
  rejoinGrants([call.api, call.agent1.api], async (id) => {
    await held.promise;
    return grantFor(id);
  });
  return { world, ...call, before, held };
}

describe('a call moving off a Janus that stays unreachable, on fakes', () => {
  it('when the claims fail MOVE_AFTER_CLAIMS times and the server answers a rejoin grant, then both sides go on in new sessions of the same call: no notice after, the report not failed', async () => {
    const { world, guest, api, agent1, callId, before, held } = await callWithHeldMoves();

    world.media.transportDropped(callId, UNREACHABLE);
    world.media.claimsFailed(callId, 1, MOVE_AFTER_CLAIMS - 1);
    await settle();
    expect(api.rejoins).toEqual([]);
    world.media.claimsFailed(callId, MOVE_AFTER_CLAIMS, MOVE_AFTER_CLAIMS);
    await settle();
    // the grants are being made: the call goes on, its notice shown
    expect([api.rejoins, agent1.api.rejoins]).toEqual([[callId], [callId]]);
    expect(guest.snapshot.mediaNotice).not.toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).not.toBeNull();
    expect(guest.snapshot.phase).toBe('ongoing');
    held.resolve();
    await settle();

    expect(before.every((t) => t.closed)).toBe(true);
    const now = world.media.members(callId);
    expect(now.filter((t) => before.includes(t))).toEqual([]);
    expect(now.map((t) => t.display).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(world.media.publishers(callId).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(guest.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['agent1@lobby.test']);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.callId).toBe(callId);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(api.reports.filter((r) => r.success === false)).toEqual([]);
    expect(api.bugs).toEqual([]);
  });

  it('when the server cannot place the room (503), then the claims go on with no new session, and the grant asked after the next MOVE_AFTER_CLAIMS claims moves the call', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const before = world.media.members(callId);
    let placed = false;
    rejoinGrants([api, agent1.api], (id) => (placed ? Promise.resolve(grantFor(id)) : Promise.reject(noNode())));

    world.media.transportDropped(callId, UNREACHABLE);
    world.media.claimsFailed(callId, 1, 2 * MOVE_AFTER_CLAIMS - 1);
    await settle();
    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([1, 1]);
    expect(world.media.members(callId)).toEqual(before);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);

    placed = true;
    world.media.claimsFailed(callId, 2 * MOVE_AFTER_CLAIMS, 2 * MOVE_AFTER_CLAIMS);
    await settle();

    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([2, 2]);
    expect(before.every((t) => t.closed)).toBe(true);
    expect(world.media.publishers(callId).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
  });

  it('when the server refuses the move because the room\'s node answers (409: the other side moved it there), then each side claims its session at once, and a 503 does not', async () => {
    const world = new FakeWorld();
    const { api, agent1, callId } = await inCall(world);
    const before = world.media.members(callId);
    let answer: () => Error = () => new ApiError(409, 'move: the media room of the call is still on a Janus node that answers: claim the session again');
    rejoinGrants([api, agent1.api], () => Promise.reject(answer()));

    world.media.transportDropped(callId, UNREACHABLE);
    world.media.claimsFailed(callId, 1, MOVE_AFTER_CLAIMS);
    await settle();

    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([1, 1]);
    expect(before.map((t) => t.claimsNow)).toEqual([1, 1]);
    expect(world.media.members(callId)).toEqual(before);

    answer = noNode;
    world.media.claimsFailed(callId, MOVE_AFTER_CLAIMS + 1, 2 * MOVE_AFTER_CLAIMS);
    await settle();
    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([2, 2]);
    expect(before.map((t) => t.claimsNow)).toEqual([1, 1]);
  });

  it('when every move is refused and the claims run out (a lone Janus that stays down), then both sides end as mediaServerDown, the report failed', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    rejoinGrants([api, agent1.api], () => Promise.reject(noNode()));

    world.media.transportDropped(callId, UNREACHABLE);
    // the claims come about a second apart: each refused move is over before the next is asked
    for (let claim = 1; claim <= 19; claim++) {
      world.media.claimsFailed(callId, claim, claim);
      await settle();
    }
    world.media.sessionsLost(callId, `Error: ${UNREACHABLE}`);
    await settle();

    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([Math.floor(19 / MOVE_AFTER_CLAIMS), Math.floor(19 / MOVE_AFTER_CLAIMS)]);
    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(MEDIA_SERVER_DOWN);
    expect(api.reports).toContainEqual(expect.objectContaining({ call_id: callId, success: false }));
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.error).toBe(MEDIA_SERVER_DOWN);
  });

  it('when a claim succeeds while the move is under way, then the answered grant still moves the call: one session per side, the reclaimed ones closed', async () => {
    const { world, guest, api, agent1, callId, before, held } = await callWithHeldMoves();

    world.media.transportDropped(callId, UNREACHABLE);
    world.media.claimsFailed(callId, 1, MOVE_AFTER_CLAIMS);
    await settle();
    world.media.reclaimed(callId);
    held.resolve();
    await settle();

    // the server may have moved the room (and the other side may follow it): the reclaimed sessions go
    expect([api.rejoins, agent1.api.rejoins]).toEqual([[callId], [callId]]);
    expect(before.every((t) => t.closed)).toBe(true);
    expect(world.media.members(callId).map((t) => t.display).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(world.media.publishers(callId).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.phase).toBe('ongoing');
  });

  it('when the session is lost (Janus answers without it) while the move is under way, then the move decides: answered, no second grant and one new session per side; refused, the lost session rejoins as after a restart', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const guestGrant = deferred<void>();
    const agentRefusal = deferred<void>();
    rejoinGrants([api], async (id) => {
      await guestGrant.promise;
      return grantFor(id);
    });
    let agentAsked = 0;
    rejoinGrants([agent1.api], async (id) => {
      agentAsked++;
      if (agentAsked > 1) return grantFor(id);
      await agentRefusal.promise;
      throw noNode();
    });

    world.media.transportDropped(callId, UNREACHABLE);
    world.media.claimsFailed(callId, 1, MOVE_AFTER_CLAIMS);
    await settle();
    world.media.sessionsLost(callId, 'Error: No such session');
    await settle();
    // both moves are under way: the lost sessions wait for them (no rejoin of their own yet)
    expect([api.rejoins.length, agent1.api.rejoins.length]).toEqual([1, 1]);
    agentRefusal.resolve();
    guestGrant.resolve();
    await settle();

    expect(api.rejoins.length).toBe(1);
    expect(agent1.api.rejoins.length).toBe(2);
    const now = world.media.members(callId);
    expect(now.map((t) => t.display).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(world.media.publishers(callId).sort()).toEqual(['agent1@lobby.test', 'guest1']);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.phase).toBe('inCall');
  });
});
