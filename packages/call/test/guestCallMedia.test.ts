/**
 * The guest's call media (src/guest/callMedia.ts) on its own, with a call room on the fake media server:
 * the grant asked and the guest published; an agent's feed answers the call (recorded once, the agent
 * announced); a failed stage sends a call-bug report; a lost session marks the report failed and fails the
 * call with its code.
 */
import { describe, expect, it } from 'vitest';
import { GuestCallMedia, type MediaCallPatch } from '../src/guest/callMedia.ts';
import { AgentsInCall } from '../src/guest/agentsInCall.ts';
import { GuestReport } from '../src/guest/callReport.ts';
import { CallRoom } from '../src/room/callRoom.ts';
import { MEDIA_LOST } from '../src/media/mediaHealth.ts';
import { initialCallStatus } from '../src/state/callStatus.ts';
import type { MediaSessionOptions, PublishOptions, RemoteFeed } from '../src/ports/media.ts';
import type { MediaNotice } from '../src/media/mediaHealth.ts';
import { FakeWorld, createFakeGuestApi, fakeStream, settle, type FakeMedia, type FakeSignalling } from './helpers/fakes.ts';

const CALL = 'guest1--call1';

function mediaOf() {
  const world = new FakeWorld();
  const ports = world.ports();
  const api = createFakeGuestApi('guest1');
  const state = {
    phase: 'starting',
    callId: CALL as string | null,
    status: initialCallStatus(),
    stages: {},
    localStream: null as MediaStream | null,
    localScreen: null as MediaStream | null,
    remoteFeeds: [] as RemoteFeed[],
    muted: { audio: false, video: false },
    mediaNotice: null as MediaNotice,
  };
  const write = (patch: Partial<typeof state> | MediaCallPatch) => Object.assign(state, patch);
  const room = new CallRoom({ ports, read: () => state, write, signalling: () => null, room: () => 'assignment-1@conference.lobby.test' });
  const report = new GuestReport({ api, environment: ports.environment, companyId: 1, state: () => state });
  const agents = new AgentsInCall({
    clock: ports.clock,
    read: () => state,
    setStatus: (update) => (state.status = update(state.status)),
    isCurrent: (m) => room.isCurrent(m),
    firstAgentChanged: () => undefined,
    allLeft: () => undefined,
  });
  const events = { announced: 0, held: [] as string[], ended: [] as string[], failed: [] as Array<[string, string]> };
  const media = new GuestCallMedia({
    api,
    janusServers: ['ws://janus.test'],
    webview: false,
    watermark: null,
    room,
    report,
    agents,
    read: () => state,
    write,
    announce: () => void events.announced++,
    held: (peer) => void events.held.push(peer),
    sendEnd: (callId) => void events.ended.push(callId),
    fail: (callId, code) => (events.failed.push([callId, code]), Promise.resolve()),
  });
  const xmpp = world.xmpp.factory({ wsUrl: 'ws://xmpp.test', jid: 'guest1@lobby.test', credential: 'x' }) as FakeSignalling;
  return { world, api, state, media, events, xmpp };
}

/** An agent publishing in the call's media room. */
async function agentPublishes(world: FakeWorld, display: string): Promise<FakeMedia> {
  const agent = world.media.factory({} as MediaSessionOptions) as FakeMedia;
  await agent.join({ room: CALL, pin: CALL.toLowerCase() }, display);
  await agent.publish({ stream: fakeStream(true) } as PublishOptions);
  return agent;
}

describe('the guest\'s call media', () => {
  it('when the call starts, then the grant is asked and the guest publishes; the first agent\'s feed makes the call ongoing and is recorded once', async () => {
    const { world, api, state, media, events, xmpp } = mediaOf();
    await media.start(CALL, 'video', fakeStream(true), 'guest1', xmpp);
    expect(api.grants).toEqual([CALL]);
    expect(world.media.publishers(CALL)).toEqual(['guest1']);
    expect(state.status.connection.janus).toBe(true);
    state.phase = 'waiting';
    await agentPublishes(world, 'agent1@lobby.test');
    await settle();
    expect(state.phase).toBe('ongoing');
    expect(state.status.peers.map((p) => p.peerJID)).toEqual(['agent1@lobby.test']);
    expect(events.announced).toBe(1);
    await agentPublishes(world, 'agent2@lobby.test'); // a supervisor: not the answer
    await settle();
    expect(api.timestamps).toEqual([{ callId: CALL, flags: ['call_answered_timestamp'] }]);
    expect(api.reports).toEqual([{ call_id: CALL, agent: 'agent1@lobby.test' }]);
  });

  it('when a stage fails, then a call-bug report is sent; when the media server loses the session and its rejoin is refused, then the report is failed and the call fails with MEDIA_LOST', async () => {
    const { world, api, state, media, events, xmpp } = mediaOf();
    await media.start(CALL, 'video', fakeStream(true), 'guest1', xmpp);
    api.mediaGrant = () => Promise.reject(new Error("call_id: this call's media room was closed"));
    const guestMedia = world.media.members(CALL)[0]!;
    guestMedia.tell('stage', { stage: 'remoteStream', ok: false, error: 'no answer' });
    expect(state.stages).toMatchObject({ remoteStream: false });
    expect(api.bugs.map((b) => b.call_id)).toEqual([CALL]);
    world.media.sessionsLost(CALL);
    await settle();
    expect(api.reports).toContainEqual(expect.objectContaining({ call_id: CALL, success: false }));
    expect(events.failed).toEqual([[CALL, MEDIA_LOST]]);
  });
});
