/**
 * The media server's health in both engines (media/mediaHealth.ts), reached through the media
 * transport port: the notice while the session is reclaimed, and the end of the call when it is lost.
 */
import { describe, expect, it } from 'vitest';
import { FakeWorld, settle } from './helpers/fakes.ts';
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

  it('when Janus loses the session, then the guest fails as mediaLost with its report failed and ended, and the agent ends with it', async () => {
    const world = new FakeWorld();
    const { guest, api, agent1, callId } = await inCall(world);

    world.media.sessionsLost(callId);
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
