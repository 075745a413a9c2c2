/**
 * The order of a subscription's steps in MediaSession, on a fake janus.js (the module is replaced):
 * Janus's offer for a new feed → our answer (`start`) → the feed told to the app. janus.js hands the
 * new tracks over while it takes the offer; what the app does with them (it renders the call screen)
 * must not sit between Janus's offer and our answer.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

type Callbacks = Record<string, (...args: unknown[]) => void>;
const log: string[] = [];
let subscriber: Callbacks | null = null;
let publisher: Callbacks | null = null;

class FakeTrack {
  readyState = 'live';
  readonly kind: string;
  readonly id: string;
  constructor(kind: string, id: string) {
    this.kind = kind;
    this.id = id;
  }
}
class FakeMediaStream {
  #tracks: FakeTrack[] = [];
  getTracks = () => [...this.#tracks];
  getVideoTracks = () => this.#tracks.filter((t) => t.kind === 'video');
  getAudioTracks = () => this.#tracks.filter((t) => t.kind === 'audio');
  addTrack = (t: FakeTrack) => void this.#tracks.push(t);
  removeTrack = (t: FakeTrack) => void (this.#tracks = this.#tracks.filter((x) => x !== t));
}

vi.mock('webrtc-adapter', () => ({ default: {} }));
vi.mock('janus-gateway', async () => {
  const { FakeJanusLibrary } = await import('./helpers/fakeJanusLibrary.ts');
  class FakeJanus extends FakeJanusLibrary {
    constructor(options: { success: () => void }) {
      super();
      setTimeout(options.success, 0);
    }
    attach(options: Callbacks & { opaqueId: string }) {
      const kind = options.opaqueId.split('-')[1];
      const handle = {
        webrtcStuff: { pc: null },
        send: ({ message, success }: { message: Record<string, unknown>; success?: (d?: unknown) => void }) => {
          log.push(`${kind} → ${String(message.request)}`);
          setTimeout(() => {
            success?.({});
            if (kind === 'publisher' && message.request === 'join') {
              options.onmessage!({ videoroom: 'joined', id: 10, private_id: 11, publishers: [{ id: 20, display: 'guest-1' }] });
            }
            if (kind === 'subscriber' && message.request === 'join') {
              options.onmessage!(
                { videoroom: 'attached', streams: [{ mid: '0', feed_id: 20, feed_display: 'guest-1' }, { mid: '1', feed_id: 20, feed_display: 'guest-1' }] },
                { type: 'offer', sdp: 'v=0' },
              );
            }
          }, 0);
        },
        createAnswer: ({ success }: { success: (jsep: unknown) => void }) => {
          // as janus.js: the offer's tracks come (ontrack) before the answer is made
          options.onremotetrack!(new FakeTrack('audio', 'a'), '0', true, { reason: 'created' });
          options.onremotetrack!(new FakeTrack('video', 'v'), '1', true, { reason: 'created' });
          setTimeout(() => success({ type: 'answer', sdp: 'v=0' }), 0);
        },
        handleRemoteJsep: () => undefined,
        hangup: () => void log.push(`${kind} hangup`),
        detach: () => undefined,
      };
      if (kind === 'subscriber') subscriber = options;
      else publisher = options;
      setTimeout(() => options.success!(handle), 0);
    }
    override destroy(options?: { success?: () => void }) {
      log.push('session → destroy');
      options?.success?.();
    }
  }
  return { default: FakeJanus };
});

beforeAll(() => {
  (globalThis as Record<string, unknown>).MediaStream = FakeMediaStream;
});

describe('MediaSession subscription', () => {
  it('when Janus offers a new feed, then the app is told of it only after our answer is sent', async () => {
    // arrange: a session that joins a room where the guest publishes
    const { MediaSession } = await import('../src/media/mediaSession.ts');
    const { browserClock } = await import('../src/composition.ts');
    const media = new MediaSession({ servers: ['ws://janus.test'], iceServers: [], attempts: 1 }, browserClock);
    const told = new Promise<void>((resolve) =>
      media.on('remoteFeed', ({ feedId, stream }) => {
        log.push(`app ← feed ${feedId} (${stream.getTracks().length} tracks)`);
        if (stream.getTracks().length === 2) resolve();
      }),
    );
    await media.connect();
    await media.attachPublisher();
    // act
    await media.join({ room: 'call-1', pin: 'PIN' }, 'agent@demo');
    await told;
    // assert: start went out before the app heard of the feed, and the feed carries both tracks
    expect(subscriber && publisher).toBeTruthy();
    const start = log.indexOf('subscriber → start');
    const feed = log.findIndex((l) => l.startsWith('app ← feed 20'));
    expect(start).toBeGreaterThan(-1);
    expect(feed).toBeGreaterThan(start);
    expect(log.at(-1)).toBe('app ← feed 20 (2 tracks)');
  });

  it('when the room still holds a camera under our own name (our previous page’s), then it is not taken for a peer', async () => {
    const { MediaSession } = await import('../src/media/mediaSession.ts');
    const { browserClock } = await import('../src/composition.ts');
    log.length = 0;
    const media = new MediaSession({ servers: ['ws://janus.test'], iceServers: [], attempts: 1 }, browserClock);
    const joined: string[] = [];
    media.on('publisherJoined', ({ display }) => joined.push(display));
    await media.connect();
    await media.attachPublisher();
    await media.join({ room: 'call-1', pin: 'PIN' }, 'guest-1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toContain('publisher → join');
    expect(joined).toEqual([]);
    expect(log.filter((l) => l.startsWith('subscriber'))).toEqual([]);
  });

  it('when Janus lost the session (it restarted), then closing it sends no leave (nothing would answer) and still destroys it; a normal close leaves', async () => {
    const { MediaSession } = await import('../src/media/mediaSession.ts');
    const { browserClock } = await import('../src/composition.ts');
    const joined = async () => {
      const media = new MediaSession({ servers: ['ws://janus.test'], iceServers: [], attempts: 1 }, browserClock);
      await media.connect();
      await media.attachPublisher();
      await media.join({ room: 'call-1', pin: 'PIN' }, 'agent@demo');
      // the guest's feed subscribed to (our answer sent) before the log starts: a fixed 20 ms was too short
      // on a busy machine, and the late `start` landed among the close's requests
      await vi.waitFor(() => expect(log).toContain('subscriber → start'));
      log.length = 0;
      return media;
    };

    await (await joined()).close({ lost: true });
    expect(log).toEqual(['publisher hangup', 'session → destroy']);

    await (await joined()).close();
    expect(log).toEqual(['publisher → leave', 'session → destroy']);
  });
});
