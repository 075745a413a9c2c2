/**
 * ICE restart and the others' stalled media in both engines, through the media transport
 * port: the "reconnecting" each side shows, the quality indicator's measure, and the end of a call whose
 * connection stayed down through every restart (the report marked failed with the SDPs).
 */
import { describe, expect, it } from 'vitest';
import { FakeWorld, settle, type FakeMedia } from './helpers/fakes.ts';
import { inCall } from './helpers/participants.ts';
import { ICE_FAILED } from '../src/media/mediaHealth.ts';
import { POLL_MS, STALL_MS } from '../src/media/mediaWatch.ts';

async function call() {
  const world = new FakeWorld();
  const parts = await inCall(world);
  const [guestMedia, agentMedia] = world.media.members(parts.callId) as [FakeMedia, FakeMedia];
  expect(guestMedia.display).toBe('guest1');
  const tick = async (n: number) => {
    for (let i = 0; i < n; i++) {
      world.clock.advance(POLL_MS);
      await settle();
    }
  };
  return { ...parts, world, guestMedia, agentMedia, tick };
}

describe('ICE restart and stalled media in the engines', () => {
  it('when the guest\'s connection is being ICE-restarted, then the guest shows networkReconnecting until both handles are back, and the call goes on', async () => {
    const { guest, guestMedia } = await call();
    guestMedia.tell('iceRestarting', { handle: 'publisher' });
    guestMedia.tell('iceRestarting', { handle: 'subscriber' });
    expect(guest.snapshot.mediaNotice).toBe('networkReconnecting');
    guestMedia.tell('iceRestarted', { handle: 'publisher' });
    expect(guest.snapshot.mediaNotice).toBe('networkReconnecting');
    guestMedia.tell('iceRestarted', { handle: 'subscriber' });
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(guest.snapshot.phase).toBe('ongoing');
  });

  it('when the Janus transport and ICE drop together (Janus crashed), then reconnecting shows first and networkReconnecting remains until ICE is back', async () => {
    const { guest, guestMedia } = await call();
    guestMedia.tell('iceRestarting', { handle: 'publisher' });
    guestMedia.tell('reconnecting', { error: 'websocket closed' });
    expect(guest.snapshot.mediaNotice).toBe('reconnecting');
    guestMedia.tell('reconnected', undefined);
    expect(guest.snapshot.mediaNotice).toBe('networkReconnecting');
    guestMedia.tell('iceRestarted', { handle: 'publisher' });
    expect(guest.snapshot.mediaNotice).toBeNull();
  });

  it('when the guest\'s media stops reaching the agent, then the agent shows peerReconnecting and a poor line, until it flows again', async () => {
    const { agent1, agentMedia, tick } = await call();
    await tick(3);
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.networkQuality.level).toBe('good');
    agentMedia.receiving = false;
    await tick(STALL_MS / POLL_MS + 1);
    expect(agent1.agent.snapshot.mediaNotice).toBe('peerReconnecting');
    expect(agent1.agent.snapshot.networkQuality).toMatchObject({ level: 'poor', lossPercent: 100 });
    agentMedia.receiving = true;
    await tick(2);
    expect(agent1.agent.snapshot.mediaNotice).toBeNull();
    expect(agent1.agent.snapshot.networkQuality.level).toBe('good');
    expect(agent1.agent.snapshot.activeCall).not.toBeNull();
  });

  it('when the guest\'s subscriber stays down through every restart, then the report is marked failed with that connection\'s SDPs and the call fails as iceFailed', async () => {
    const { guest, api, callId, guestMedia } = await call();
    guestMedia.tell('iceRestarting', { handle: 'subscriber' });
    guestMedia.tell('iceFailed', { handle: 'subscriber' });
    await settle();
    expect(api.reports).toContainEqual({
      call_id: callId,
      success: false,
      guest_local_sdp: 'v=0 subscriber-local',
      guest_remote_sdp: 'v=0 subscriber-remote',
    });
    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(ICE_FAILED);
    expect(guest.snapshot.mediaNotice).toBeNull();
    expect(api.timestamps).toContainEqual({ callId, flags: ['call_ended_timestamp'] });
  });

  it('when the agent\'s own connection stays down through every restart, then the agent leaves the call with iceFailed', async () => {
    const { agent1, agentMedia } = await call();
    agentMedia.tell('iceFailed', { handle: 'publisher' });
    await settle();
    expect(agent1.agent.snapshot.activeCall).toBeNull();
    expect(agent1.agent.snapshot.error).toBe(ICE_FAILED);
  });
});
