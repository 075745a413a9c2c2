/**
 * Sound first in both engines (docs/protocol.md "Line steps"), on the fake world: the guest's line turns
 * lossy, its step goes to audioOnly, and the agent learns it through the guest's room presence; the line
 * recovers, the guest steps up and the agent's list empties of the pause.
 */
import { describe, expect, it } from 'vitest';
import { FakeWorld, settle, type FakeMedia } from './helpers/fakes.ts';
import { inCall } from './helpers/participants.ts';
import { POLL_MS } from '../src/media/mediaWatch.ts';
import { UP_WAIT_MS } from '../src/media/lineSteps.ts';

describe('line steps in the engines', () => {
  it('when the guest\'s line is congested, then the guest goes audioOnly and the agent is told; when it recovers, the guest steps up', async () => {
    const world = new FakeWorld();
    const { guest, agent1, callId } = await inCall(world);
    const [guestMedia] = world.media.members(callId) as [FakeMedia, FakeMedia];
    const tick = async (n: number) => {
      for (let i = 0; i < n; i++) {
        world.clock.advance(POLL_MS);
        await settle();
      }
    };
    expect(guest.snapshot.localStream?.getVideoTracks().length).toBeGreaterThan(0);
    await tick(3);
    expect(guest.snapshot.status.lineStep).toBe('full');

    // a congested line: the far end reports a fifth of what the guest sends lost, its queue takes the
    // round trip over 1.5 s (the loss we receive alone could be the sender's)
    guestMedia.lossPercent = 20;
    guestMedia.sentLossPercent = 20;
    guestMedia.queueMs = 1600;
    await tick(3);
    expect(guest.snapshot.status.lineStep).toBe('audioOnly');
    expect(agent1.agent.snapshot.status.weakLineJIDs.map((w) => w.step)).toEqual(['audioOnly']);

    guestMedia.lossPercent = 0;
    guestMedia.sentLossPercent = 0;
    guestMedia.queueMs = 0;
    await tick(UP_WAIT_MS / POLL_MS + 2);
    expect(guest.snapshot.status.lineStep).toBe('reduced');
    expect(agent1.agent.snapshot.status.weakLineJIDs.map((w) => w.step)).toEqual(['reduced']);
    // no rate is measured on the fakes: a good reading takes it to full
    await tick(UP_WAIT_MS / POLL_MS + 2);
    expect(guest.snapshot.status.lineStep).toBe('full');
    expect(agent1.agent.snapshot.status.weakLineJIDs).toEqual([]);
  });

  it('when what the guest receives is lossy (the sender\'s uplink), then its camera keeps its step', async () => {
    const world = new FakeWorld();
    const { guest, callId } = await inCall(world);
    const [guestMedia] = world.media.members(callId) as [FakeMedia, FakeMedia];
    const tick = async (n: number) => {
      for (let i = 0; i < n; i++) {
        world.clock.advance(POLL_MS);
        await settle();
      }
    };
    await tick(3);
    guestMedia.lossPercent = 20;
    await tick(6);
    expect(guest.snapshot.status.lineStep).toBe('full');
  });
});
