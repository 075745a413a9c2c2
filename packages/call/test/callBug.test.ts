/**
 * The guest's call-bug report (POST /call-bug/by-guest, docs/protocol.md "Media session": sent when a stage
 * failed and the call method is not p2p), on fakes: the same failures — a stage of the media set-up, and the
 * connection failing for good — report a call bug on the Janus transport and never on the p2p one. The
 * call's media grant decides which method a call uses (the guest here is built without the company's
 * callMethod, as a page loaded before the admin switched the company to p2p).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICE_FAILED } from '../src/media/mediaHealth.ts';
import { P2P_INITIATE_ATTEMPTS } from '../src/media/p2pTransport.ts';
import { FakeWorld, settle, type FakeMedia } from './helpers/fakes.ts';
import { FakeJingleNetwork, FakeMediaStream } from './helpers/fakeJingle.ts';
import { agentOnline, guestWaiting, inCall } from './helpers/participants.ts';

/** A guest whose call a p2p agent answers; `startError`: the guest's session-initiate fails with it. */
async function p2pCall(startError: Error | null = null) {
  const world = new FakeWorld();
  const network = new FakeJingleNetwork();
  network.startError = startError;
  world.xmpp.jingle = network;
  const guest = await guestWaiting(world);
  const agent1 = await agentOnline(world, 'agent1');
  const callId = guest.guest.snapshot.callId!;
  await agent1.agent.answer(callId);
  await settle(40);
  return { ...guest, network, callId };
}

/** A guest in a call on the (fake) Janus transport, and its media transport. */
async function janusCall() {
  const world = new FakeWorld();
  const parts = await inCall(world);
  const guestMedia = world.media.members(parts.callId).find((m) => m.display === 'guest1') as FakeMedia;
  return { ...parts, guestMedia };
}

describe('call-bug reports by transport', () => {
  const native = (globalThis as { MediaStream?: unknown }).MediaStream;
  beforeAll(() => {
    (globalThis as { MediaStream?: unknown }).MediaStream = FakeMediaStream;
  });
  afterAll(() => {
    (globalThis as { MediaStream?: unknown }).MediaStream = native;
  });

  it("when a p2p call's session-initiate fails (its createOffer stage), then the stage is recorded failed, the call fails after its retries and no call bug is reported", async () => {
    const { guest, api, network } = await p2pCall(new Error('service-unavailable'));

    expect(network.calls).toHaveLength(P2P_INITIATE_ATTEMPTS); // the guest tried the agent's console, again and again
    expect(guest.snapshot.stages.createOffer).toBe(false);
    expect(guest.snapshot.phase).toBe('failed');
    expect(api.bugs).toEqual([]);
  });

  it('when the same stage fails on the Janus transport, then a call bug is reported for the call with the failed stage', async () => {
    const { guest, api, callId, guestMedia } = await janusCall();

    guestMedia.tell('stage', { stage: 'createOffer', ok: false, error: 'Error: service-unavailable' });
    await settle();

    expect(guest.snapshot.stages.createOffer).toBe(false);
    expect(api.bugs).toHaveLength(1);
    expect(api.bugs[0]).toMatchObject({ call_id: callId });
    expect(JSON.parse(String(api.bugs[0]!.guest_state))).toMatchObject({ stages: { createOffer: false } });
  });

  it("when a p2p call's connection fails for good (ICE failed), then the call fails as iceFailed and no call bug is reported", async () => {
    const { guest, api, network } = await p2pCall();
    const guestSide = network.calls[0]!;
    expect(guest.snapshot.phase).toBe('ongoing');

    guestSide.pc.iceConnectionState = 'failed';
    guestSide.pc.dispatch('iceconnectionstatechange', {});
    await settle();

    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe(ICE_FAILED);
    expect(api.bugs).toEqual([]);
  });

  it("when the Janus transport's connection fails for good (ICE failed), then the call fails and a call bug is reported", async () => {
    const { guest, api, callId, guestMedia } = await janusCall();

    guestMedia.tell('iceFailed', { handle: 'publisher' });
    await settle();

    expect(guest.snapshot.phase).toBe('failed');
    expect(api.bugs).toHaveLength(1);
    expect(api.bugs[0]).toMatchObject({ call_id: callId });
  });
});
