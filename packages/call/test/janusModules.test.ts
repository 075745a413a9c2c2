/**
 * The modules a Janus media session composes (src/media/janus/, docs/architecture.md "Media modules"),
 * each on a fake janus.js and the ports' fake clock: the ICE restarts (docs/protocol.md "ICE restart"),
 * the subscriber's feeds, the published tracks' mute and device swap, and the screen share's cleanup.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { JanusConnection } from '../src/media/janus/connection.ts';
import { JanusIceRestarts, PENDING_RESTART_MS } from '../src/media/janus/iceRestarts.ts';
import type { Attach, Handle } from '../src/media/janus/library.ts';
import { PublishedTracks } from '../src/media/janus/publishedTracks.ts';
import { JanusScreenShare } from '../src/media/janus/screenShare.ts';
import { JanusSubscriber } from '../src/media/janus/subscriber.ts';
import type { HandleKind } from '../src/ports/media.ts';
import { FakeMediaStream, FakeSender } from './helpers/fakeJingle.ts';
import { FakeClock, FakeTrack, settle } from './helpers/fakes.ts';
import { FakeJanusServer, recordedEvents, type FakeHandle } from './helpers/fakeJanusSession.ts';

const ROOM = { room: 'call-1', pin: 'PIN' };

beforeAll(() => {
  (globalThis as Record<string, unknown>).MediaStream = FakeMediaStream;
});

async function connected(server = new FakeJanusServer(), clock = new FakeClock()) {
  const { tell, events } = recordedEvents();
  const connection = new JanusConnection({ servers: ['wss://lobby.test/janus'], attempts: 1, clock, tell, load: () => Promise.resolve(server.library()) });
  await connection.connect();
  return { server, clock, connection, tell, events };
}

/** Moves the fake clock on in steps, letting what each step sets off run. */
async function pass(clock: FakeClock, ms: number, step = 500): Promise<void> {
  for (let gone = 0; gone < ms; gone += step) {
    clock.advance(Math.min(step, ms - gone));
    await settle(4);
  }
}

const requests = (handle: FakeHandle) => handle.sent.map((s) => String(s.message.request));

describe('Janus ICE restarts', () => {
  async function publishing() {
    const setup = await connected();
    const pc = { iceConnectionState: 'connected' as RTCIceConnectionState };
    const handles = new Map<HandleKind, Handle>();
    const restarts = new JanusIceRestarts({ connection: setup.connection, handle: (kind) => handles.get(kind) ?? null, clock: setup.clock, tell: setup.tell });
    const publisher = await setup.connection.attach('publisher', {});
    (publisher as unknown as FakeHandle).webrtcStuff.pc = pc;
    handles.set('publisher', publisher);
    return { ...setup, pc, restarts, publisher: publisher as unknown as FakeHandle };
  }

  it('when the publisher connection fails, then the transport is renewed without a reconnecting notice and one restarted offer is configured', async () => {
    const { server, pc, restarts, publisher, events } = await publishing();

    pc.iceConnectionState = 'failed';
    restarts.onState('publisher', 'failed');
    await settle();

    expect(server.claims).toBe(1);
    expect(server.offers).toEqual([{ kind: 'publisher', iceRestart: true }]);
    expect(requests(publisher)).toEqual(['configure']);
    expect(events.map(([event]) => event)).toEqual(['iceRestarting']);
  });

  it('when a restart stays unanswered, then none is stacked behind it until PENDING_RESTART_MS, and Janus’s answer lets the next go at once', async () => {
    const { server, clock, pc, restarts } = await publishing();
    pc.iceConnectionState = 'failed';
    restarts.onState('publisher', 'failed');
    await settle();

    // the restarter tries again every 10 s: each attempt finds the first restart still pending
    await pass(clock, PENDING_RESTART_MS - 1000);
    expect(server.offers).toHaveLength(1);

    restarts.answered('publisher');
    await pass(clock, 10_000);
    expect(server.offers).toHaveLength(2);
  });

  it('when the publisher connection comes back by itself, then iceRestarted is told and stopAll ends every restarter', async () => {
    const { clock, pc, restarts, events, server } = await publishing();
    pc.iceConnectionState = 'failed';
    restarts.onState('publisher', 'failed');
    await settle();

    pc.iceConnectionState = 'connected';
    restarts.onState('publisher', 'connected');
    restarts.stopAll();
    restarts.onState('publisher', 'failed');
    await pass(clock, 30_000);

    expect(events.map(([event]) => event)).toEqual(['iceRestarting', 'iceRestarted']);
    expect(server.offers).toHaveLength(1);
  });
});

describe('Janus subscriber', () => {
  async function subscribing() {
    const setup = await connected();
    const answered: string[] = [];
    const attach: Attach = (kind, callbacks) => setup.connection.attach(kind, callbacks);
    const subscriber = new JanusSubscriber({
      connection: setup.connection,
      attach,
      tell: setup.tell,
      answered: () => answered.push('subscriber'),
      room: () => ROOM,
      privateId: () => 11,
      isOwn: (p) => p.id === '10' || p.display === 'agent-screen',
    });
    subscriber.prepare();
    await settle();
    const handle = setup.server.handles.find((h) => h.kind === 'subscriber')!;
    return { ...setup, subscriber, handle, answered };
  }

  it('when the room announces publishers, then our own camera and screen are skipped and the others are joined in one subscription with our private id', async () => {
    const { subscriber, handle, events } = await subscribing();

    subscriber.subscribeTo([
      { id: '10', display: 'agent' },
      { id: '12', display: 'agent-screen' },
      { id: '20', display: 'guest-1' },
    ]);
    await settle();

    expect(events).toEqual([['publisherJoined', { feedId: '20', display: 'guest-1' }]]);
    expect(handle.sent.map((s) => s.message)).toEqual([
      { request: 'join', ptype: 'subscriber', room: 'call-1', pin: 'pin', streams: [{ feed: '20' }], private_id: 11 },
    ]);
  });

  it('when Janus offers the feed and its tracks come, then our answer starts it, the feed is told with both tracks, and its leaving removes it', async () => {
    const { subscriber, handle, events, answered } = await subscribing();
    subscriber.subscribeTo([{ id: '20', display: 'guest-1' }]);
    await settle();

    handle.callbacks.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 20 }, { mid: '1', feed_id: 20 }] } as never, { type: 'offer', sdp: 'v=0' } as never);
    const onTrack = handle.callbacks.onremotetrack as unknown as (track: FakeTrack, mid: string, on: boolean) => void;
    onTrack(new FakeTrack('audio'), '0', true);
    onTrack(new FakeTrack('video'), '1', true);
    await settle();

    expect(answered).toEqual(['subscriber']);
    expect(requests(handle)).toEqual(['join', 'start']);
    expect(subscriber.remoteFeeds.map((f) => [f.feedId, f.stream.getTracks().length])).toEqual([['20', 2]]);
    const told = events.filter(([event]) => event === 'remoteFeed' || event === 'stage').map(([event, payload]) => `${event}:${JSON.stringify((payload as { stage?: string }).stage ?? '')}`);
    expect(told).toEqual(['stage:"createAnswer"', 'stage:"remoteStream"', 'remoteFeed:""', 'remoteFeed:""']);

    subscriber.feedGone('20');

    expect(subscriber.remoteFeeds).toEqual([]);
    expect(events.slice(-2)).toEqual([
      ['remoteFeedRemoved', { feedId: '20', display: 'guest-1' }],
      ['publisherLeft', { feedId: '20', display: 'guest-1' }],
    ]);
  });
});

describe('published tracks', () => {
  function publishing() {
    const audio = new FakeTrack('audio');
    const video = new FakeTrack('video');
    const senders = [new FakeSender(), new FakeSender()];
    void senders[0]!.replaceTrack(audio);
    void senders[1]!.replaceTrack(video);
    const replaced: unknown[] = [];
    const handle = {
      webrtcStuff: { pc: { getSenders: () => senders, getTransceivers: () => senders.map((sender, i) => ({ sender, mid: String(i) })) } },
      replaceTracks: (o: { tracks: Array<{ type: string; capture: FakeTrack }>; success: () => void }) => {
        for (const t of o.tracks) void senders[t.type === 'audio' ? 0 : 1]!.replaceTrack(t.capture);
        replaced.push(...o.tracks.map((t) => t.type));
        o.success();
      },
    } as unknown as Handle;
    const tracks = new PublishedTracks({ handle: () => handle, ended: () => false });
    tracks.use(new FakeMediaStream([audio, video]) as unknown as MediaStream, null);
    return { tracks, audio, video, senders, replaced };
  }

  it('when the microphone is muted, then its track is disabled and taken off its sender, and unmuting puts the same track back', async () => {
    const { tracks, audio, senders } = publishing();

    await tracks.setMuted('audio', true);
    expect(audio.enabled).toBe(false);
    expect(senders[0]!.track).toBeNull();

    await tracks.setMuted('audio', false);
    expect(audio.enabled).toBe(true);
    expect(senders[0]!.history).toEqual([audio, null, audio]);
  });

  it('when the camera is swapped while muted, then nothing is sent until unmute, which sends the new camera and the old one is stopped', async () => {
    const { tracks, video, senders, replaced } = publishing();
    await tracks.setMuted('video', true);
    const camera = new FakeTrack('video', 'camera-1');

    await tracks.replaceTracks(new FakeMediaStream([camera]) as unknown as MediaStream);
    expect(replaced).toEqual([]);
    expect(senders[1]!.track).toBeNull();
    expect(video.readyState).toBe('ended');
    expect(camera.enabled).toBe(false);

    await tracks.setMuted('video', false);
    expect(senders[1]!.track).toBe(camera);
    expect(tracks.localStream?.getVideoTracks()).toEqual([camera]);
  });

  it('when the session closes, then every local track is stopped', () => {
    const { tracks, audio, video } = publishing();
    tracks.stop();
    expect([audio.readyState, video.readyState]).toEqual(['ended', 'ended']);
  });
});

describe('Janus screen share', () => {
  async function sharing() {
    const setup = await connected();
    // Janus joins the screen publisher and configures its stream as soon as it is asked
    setup.server.answer = (handle, message) => {
      if (message.request === 'join') queueMicrotask(() => handle.callbacks.onmessage!({ videoroom: 'joined', id: 30 } as never));
      if (message.request === 'configure') queueMicrotask(() => handle.callbacks.onmessage!({ videoroom: 'event', configured: 'ok' } as never));
      return {};
    };
    let restartsStopped = 0;
    const screen = new JanusScreenShare({
      connection: setup.connection,
      attach: (kind, callbacks) => setup.connection.attach(kind, callbacks),
      tell: setup.tell,
      answered: () => undefined,
      stopRestarts: () => restartsStopped++,
    });
    const track = new FakeTrack('video', 'screen-0');
    await screen.start(track as unknown as MediaStreamTrack, ROOM, 'agent');
    const handle = setup.server.handles.find((h) => h.kind === 'screen')!;
    return { ...setup, screen, track, handle, restarts: () => restartsStopped };
  }

  it('when the screen is shared, then a second publisher named {display}-screen joins and configures video only', async () => {
    const { screen, handle } = await sharing();

    expect(screen.sharing).toBe(true);
    expect(screen.id).toBe('30');
    expect(handle.sent.map((s) => s.message)).toEqual([
      { request: 'join', ptype: 'publisher', room: 'call-1', pin: 'pin', display: 'agent-screen' },
      { request: 'configure', audio: false, video: true },
    ]);
  });

  it('when the browser ends the shared track, then the share cleans up (leave, hang-up, detach, restarts stopped) and screenEnded is told', async () => {
    const { screen, handle, track, events, restarts } = await sharing();

    track.endByBrowser();
    await settle();

    expect(screen.sharing).toBe(false);
    expect(requests(handle).at(-1)).toBe('leave');
    expect([handle.hungUp, handle.detached]).toEqual([true, true]);
    expect(restarts()).toBe(1);
    expect(events.map(([event]) => event)).toEqual(['screenEnded']);
  });
});
