/**
 * The desk entering and leaving its call's media (src/agent/deskCallMedia.ts) on its own, on the fake media
 * server: entering makes the call active and publishes us in its media room, where the guest's feed reaches
 * us; a grant refused leaves the call with its error; leaving clears the call at once and closes our media;
 * the guest's camera leaving, or Janus losing the session, reach it through the media join (mediaJoin.ts).
 */
import { describe, expect, it } from 'vitest';
import { DeskCallMedia } from '../src/agent/deskCallMedia.ts';
import type { LeaveReason } from '../src/agent/mediaJoin.ts';
import { NAVIGATION_RETURN_MS } from '../src/agent/reconnection.ts';
import { initialAgentSnapshot, type AgentSnapshot } from '../src/agent/deskSnapshot.ts';
import { CallRoom } from '../src/room/callRoom.ts';
import type { MediaSessionOptions, PublishOptions } from '../src/ports/media.ts';
import { FakeWorld, createFakeConsoleApi, fakeStream, settle, type FakeMedia } from './helpers/fakes.ts';

const AGENT = 'agent1@lobby.test';
const CALL_ID = 'guest1--c1';
const CALL = { callId: CALL_ID, room: 'assignment-1@conference.lobby.test', guestNick: 'guest1', callType: 'video' as const, guestStatus: '' };

/** A started desk, free, with an earlier call's error still shown. */
const idle = (): AgentSnapshot => ({ ...initialAgentSnapshot(), phase: 'idle', jid: AGENT, live: true, error: 'an earlier error' });

async function deskOf() {
  const world = new FakeWorld();
  const ports = world.ports();
  const api = createFakeConsoleApi(AGENT);
  const xmpp = world.xmpp.factory({ wsUrl: 'ws://xmpp.test', jid: AGENT, credential: 'secret' });
  await xmpp.connect();
  let state = idle();
  const write = (patch: Partial<AgentSnapshot>) => void (state = { ...state, ...patch });
  const room = new CallRoom({ ports, read: () => state, write, signalling: () => xmpp, room: () => state.activeCall?.room ?? null });
  const leaving: LeaveReason[] = [];
  const unmuted: string[] = [];
  let pageGone = 0;
  let navigating: string | null = null;
  const callMedia = new DeskCallMedia({
    ports,
    options: { api, janusServers: ['ws://janus.test'] },
    room,
    nick: () => 'agent1',
    signalling: () => xmpp,
    read: () => state,
    write,
    presenceOf: () => null,
    guestNavigating: () => navigating,
    guestPageGone: () => void pageGone++,
    feedAdded: () => undefined,
    leaving: (reason) => void leaving.push(reason),
    unmuted: (room) => void unmuted.push(room),
  });
  return {
    world,
    devices: ports.devices,
    api,
    xmpp,
    callMedia,
    state: () => state,
    write,
    leaving,
    unmuted,
    pageGone: () => pageGone,
    navigate: () => (navigating = CALL_ID),
  };
}

/** The guest publishing its camera in the call's media room. */
async function guestPublishes(world: FakeWorld): Promise<FakeMedia> {
  const media = world.media.factory({} as MediaSessionOptions) as FakeMedia;
  await media.join({ room: CALL_ID, pin: CALL_ID.toLowerCase() }, 'guest1');
  await media.publish({ stream: fakeStream(true) } as PublishOptions);
  return media;
}

describe('the desk entering and leaving its call\'s media', () => {
  it('when a call is entered, then it is active with a fresh status, joining until we publish in its media room, then in the call with the guest\'s feed', async () => {
    const { world, api, xmpp, callMedia, state, devices } = await deskOf();
    await guestPublishes(world);
    let seen: AgentSnapshot | null = null;
    const entered = callMedia.enter(CALL, true, xmpp, () => (seen = state()));
    expect(seen).toMatchObject({ phase: 'joining', activeCall: { ...CALL, startedAt: world.clock.now() }, error: null, lastEnded: null });
    expect(state().status.callStarted).toBe(true);
    await entered;
    await settle();
    expect(api.grants).toEqual([CALL_ID]);
    expect(state().phase).toBe('inCall');
    expect(world.media.publishers(CALL_ID).sort()).toEqual([AGENT, 'guest1']);
    expect(state().remoteFeeds.map((f) => f.display)).toEqual(['guest1']);
    expect(devices.requests.map((r) => r.video)).toEqual([true]);
  });

  it('when the media grant is refused, then the call is left with its error, and the failure thrown', async () => {
    const { api, xmpp, callMedia, state, leaving } = await deskOf();
    api.mediaGrant = () => Promise.reject(new Error('call closed'));
    await expect(callMedia.enter(CALL, false, xmpp)).rejects.toThrow('call closed');
    expect(state()).toMatchObject({ phase: 'idle', activeCall: null, error: 'call closed', lastEnded: { callId: CALL_ID, reason: 'error' } });
    expect(leaving).toEqual(['error']);
  });

  it('when the call is left, then it is cleared at once, our media closed, and the room told we are unmuted only if we were muted; without a call, nothing is left', async () => {
    const { world, xmpp, callMedia, state, write, leaving, unmuted } = await deskOf();
    await callMedia.enter(CALL, true, xmpp);
    write({ muted: { audio: true, video: false }, mediaNotice: 'serverUnreachable' });
    await callMedia.leave('agent');
    expect(state()).toMatchObject({
      phase: 'idle',
      activeCall: null,
      remoteFeeds: [],
      localStream: null,
      mediaNotice: null,
      muted: { audio: false, video: false },
      lastEnded: { callId: CALL_ID, reason: 'agent' },
    });
    expect(unmuted).toEqual([CALL.room]);
    expect(world.media.publishers(CALL_ID)).toEqual([]);
    expect(world.media.transports.every((t) => t.closed)).toBe(true);

    await callMedia.enter(CALL, true, xmpp);
    await xmpp.disconnect();
    await callMedia.leave('transferred');
    expect(state()).toMatchObject({ phase: 'offline', lastEnded: { callId: CALL_ID, reason: 'transferred' } });
    expect(unmuted).toHaveLength(1);
    await callMedia.leave('guest'); // no call: only the hand-over is told
    expect(state().lastEnded?.reason).toBe('transferred');
    expect(leaving).toEqual(['agent', 'transferred', 'guest']);
  });

  it('when the guest\'s camera leaves the media room, then the call is left for the guest; a guest changing page has its page gone told, and is left only if it is not back in time', async () => {
    const gone = await deskOf();
    await guestPublishes(gone.world);
    await gone.callMedia.enter(CALL, true, gone.xmpp);
    await settle();
    gone.world.media.drop(CALL_ID, 'guest1');
    await settle();
    expect(gone.state()).toMatchObject({ activeCall: null, lastEnded: { callId: CALL_ID, reason: 'guest' } });

    const paging = await deskOf();
    await guestPublishes(paging.world);
    await paging.callMedia.enter(CALL, true, paging.xmpp);
    await settle();
    paging.navigate();
    paging.world.media.drop(CALL_ID, 'guest1');
    await settle();
    expect(paging.pageGone()).toBe(1);
    expect(paging.state().activeCall?.callId).toBe(CALL_ID);
    paging.world.clock.advance(NAVIGATION_RETURN_MS); // its next page's camera did not come
    await settle();
    expect(paging.state()).toMatchObject({ activeCall: null, lastEnded: { callId: CALL_ID, reason: 'guest' } });
  });

  it('when Janus loses the call\'s session, then the call goes on in a new session of a rejoin grant', async () => {
    const { world, api, xmpp, callMedia, state } = await deskOf();
    await callMedia.enter(CALL, true, xmpp);
    const [first] = world.media.members(CALL_ID);
    world.media.sessionsLost(CALL_ID);
    await settle();
    expect(api.rejoins).toEqual([CALL_ID]);
    expect(first?.closed).toBe(true);
    expect(world.media.members(CALL_ID).map((t) => t.display)).toEqual([AGENT]);
    expect(state()).toMatchObject({ phase: 'inCall', activeCall: { callId: CALL_ID }, error: null });
  });
});
