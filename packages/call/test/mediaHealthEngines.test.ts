/**
 * The media server's health in both engines (media/mediaHealth.ts), reached through the media
 * transport port: the notice while the session is reclaimed, and the end of the call when it is lost.
 */
import { describe, expect, it } from 'vitest';
import { FakeWorld, grantFor, settle } from './helpers/fakes.ts';
import { guestReady, inCall } from './helpers/participants.ts';
import { MEDIA_LOST, MEDIA_SERVER_DOWN } from '../src/media/mediaHealth.ts';

describe('media server health on fakes', () => {
  it('when the transport to Janus drops and the session is reclaimed, then both sides show reconnecting, then nothing', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);

    world.media.transportDropped(callId);
    expect(guest.snapshot.mediaNotice).toBe('reconnecting');
    expect(agent1.agent.snapshot.mediaNotice).toBe('reconnecting');

    world.media.reclaimed(callId);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.phase).toBe('inCall');
  });

  it('when Janus restarted (it answers without the session), then both sides rejoin the same call with new grants and sessions: frozen notice meanwhile, none after, the report not failed', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const camera = guest.snapshot.localStream!;
    const agentCamera = agent1.agent.snapshot.localStream!;
    const [guestLost, agentLost] = [world.media.transports.find((t) => t.display === 'guest1')!, world.media.members(callId).find((t) => t.display !== 'guest1')!];
    let heldGrant: () => void = () => undefined;
    const grantHeld = new Promise<void>((resolve) => (heldGrant = resolve));
    const grant = api.mediaGrant.bind(api);
    api.mediaGrant = async (id, options) => {
      if (options?.rejoin) await grantHeld;
      return grant(id, options);
    };

    world.media.transportDropped(callId, 'Lost connection to the server (is it down?)');
    world.media.sessionsLost(callId, 'Error: No such session');
    await settle();
    // the guest's new grant is still being made: both read the picture is frozen, the call goes on
    expect(guest.snapshot.mediaNotice).toBe('serverUnreachable');
    expect(agent1.agent.snapshot.mediaNotice).toBe('serverUnreachable');
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.activeCall?.callId).toBe(callId);
    heldGrant();
    await settle();

    expect(api.rejoins).toEqual([callId]);
    expect(agent1.api.rejoins).toEqual([callId]);
    expect(guestLost.closed && agentLost.closed).toBe(true);
    // new sessions in the same room, each publishing the camera it had (not stopped)
    const guestNew = world.media.members(callId).find((t) => t.display === 'guest1')!;
    expect(guestNew).not.toBe(guestLost);
    // …live (the lost session's cleanup stopped the tracks it had published: the new one publishes clones)
    const agentNew = world.media.members(callId).find((t) => t.display !== 'guest1')!;
    for (const [published, before, now] of [
      [guestNew.published?.stream, camera, guest.snapshot.localStream],
      [agentNew.published?.stream, agentCamera, agent1.agent.snapshot.localStream],
    ] as const) {
      expect(published).toBe(now);
      expect(published?.getTracks().map((t) => [t.kind, t.readyState, (t as unknown as { deviceId: string }).deviceId])).toEqual(
        before.getTracks().map((t) => [t.kind, 'live', (t as unknown as { deviceId: string }).deviceId]),
      );
    }
    expect(world.media.publishers(callId).sort()).toEqual(['agent1@lobby.test', 'guest1'].sort());
    // the others' media reached both: no notice, the same call
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['agent1@lobby.test']);
    expect(agent1.agent.snapshot.remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(guest.snapshot.callId).toBe(callId);
    expect(guest.snapshot.phase).toBe('ongoing');
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(agent1.agent.snapshot.error).toBeNull();
    expect(api.reports.filter((r) => r.success === false)).toEqual([]);
    expect(api.bugs).toEqual([]);
    expect(api.timestamps.filter((t) => t.flags.includes('call_ended_timestamp'))).toEqual([]);
  });

  it('when a side was muted before Janus restarted, then its new session publishes muted too', async () => {
    const world = new FakeWorld();
    const { guest, callId } = await inCall(world);
    guest.setMuted('audio', true);
    world.media.sessionsLost(callId, 'Error: No such session');
    await settle();
    const guestNew = world.media.members(callId).find((t) => t.display === 'guest1')!;
    expect(guestNew.muted).toEqual({ audio: true, video: false });
  });

  it('when the rejoin is refused (the room was closed), then the guest fails as mediaLost with its report failed and ended, and the agent ends with it', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);
    const refused = Object.assign(new Error("call_id: this call's media room was closed"), { status: 409 });
    api.mediaGrant = (id, options) => (options?.rejoin ? Promise.reject(refused) : Promise.resolve(grantFor(id)));
    agent1.api.mediaGrant = (id, options) => (options?.rejoin ? Promise.reject(refused) : Promise.resolve(grantFor(id)));

    world.media.sessionsLost(callId, 'Error: No such session');
    await settle();

    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(MEDIA_LOST);
    expect(api.reports).toContainEqual(expect.objectContaining({ call_id: callId, success: false }));
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.error).toBe(MEDIA_LOST);
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
  });

  it('when the claims of the session end with Janus still unreachable, then both sides end as mediaServerDown (never "restarted")', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);

    world.media.transportDropped(callId, 'Lost connection to the server (is it down?)');
    world.media.sessionsLost(callId, 'Error: Lost connection to the server (is it down?)');
    await settle();

    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(MEDIA_SERVER_DOWN);
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.error).toBe(MEDIA_SERVER_DOWN);
  });

  it('when Janus never answers, then the guest call fails as mediaServerDown, its notice cleared and the call ended', async () => {
    const world = new FakeWorld();
    world.media.connectRetries = 2;
    world.media.connectError = new Error('Lost connection to the server (is it down?)');
    const { guest, api } = await guestReady(world);

    await expect(guest.call('video')).rejects.toThrow(MEDIA_SERVER_DOWN);
    await settle();

    const callId = guest.snapshot.callId!;
    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(MEDIA_SERVER_DOWN);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
  });
});
