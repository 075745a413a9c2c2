/**
 * A standby MediaSession (media/standby.ts) on a fake janus.js (the module is replaced): it connects and
 * attaches both handles with the session's (standby) token; once handed its call's grant, every request of
 * its handles and of any handle attached later carries the room's token (janus.js sends a handle's own
 * token), its peer connections take the answer's ICE servers, and the answer's connect and attach are
 * not made again.
 */
import { describe, expect, it, vi } from 'vitest';

type Callbacks = Record<string, (...args: unknown[]) => void>;
const sessions: Array<{ token?: string; iceServers?: RTCIceServer[] }> = [];
const attaches: Array<{ kind: string; token?: string }> = [];
const sent: Array<{ kind: string; request: string; token?: string }> = [];

vi.mock('webrtc-adapter', () => ({ default: {} }));
vi.mock('janus-gateway', async () => {
  const { FakeJanusLibrary } = await import('./helpers/fakeJanusLibrary.ts');
  class FakeJanus extends FakeJanusLibrary {
    constructor(options: { success: () => void; token?: string; iceServers?: RTCIceServer[] }) {
      super();
      // janus.js keeps the array it is given and reads it for each peer connection
      sessions.push(options);
      setTimeout(options.success, 0);
    }
    attach(options: Callbacks & { opaqueId: string; token?: string }) {
      const kind = options.opaqueId.split('-')[1]!;
      attaches.push({ kind, ...(options.token ? { token: options.token } : {}) });
      // janus.js: the handle's token is the attach's own, else none (the session's is used)
      const handle: Record<string, unknown> = {
        token: options.token,
        webrtcStuff: { pc: null },
        send: ({ message, success }: { message: Record<string, unknown>; success?: (d?: unknown) => void }) => {
          sent.push({ kind, request: String(message.request), ...(handle.token ? { token: handle.token as string } : {}) });
          setTimeout(() => {
            success?.({});
            if (kind === 'publisher' && message.request === 'join') {
              options.onmessage!({ videoroom: 'joined', id: 10, private_id: 11, publishers: [] });
            }
          }, 0);
        },
        detach: () => undefined,
      };
      setTimeout(() => options.success!(handle), 0);
    }
  }
  return { default: FakeJanus };
});

describe('MediaSession on standby', () => {
  it('when a standby session is handed its grant, then its handles speak with the room token, a later handle is attached with it, and nothing is connected or attached again', async () => {
    // arrange: a session made before the call, with the agent's standby token
    const { MediaSession } = await import('../src/media/mediaSession.ts');
    const { browserClock } = await import('../src/composition.ts');
    const stun = [{ urls: 'stun:stun.test' }];
    const media = new MediaSession({ servers: ['ws://janus.test'], iceServers: stun, token: 'standby', attempts: 1 }, browserClock);
    await media.standBy();
    expect(media.prepared).toBe(true);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.token).toBe('standby');
    expect(attaches.map((a) => a.kind).sort()).toEqual(['publisher', 'subscriber']);
    expect(attaches.every((a) => a.token === undefined)).toBe(true); // the session's token

    // act: the answer's grant, then the answer's steps as CallRoom makes them
    const turn = [{ urls: 'turn:turn.test', username: 'fresh', credential: 'c' }];
    media.useGrant('room-token', turn);
    await media.connect();
    await media.attachPublisher();
    await media.join({ room: 'call-1', pin: 'PIN' }, 'agent@demo');
    const track = { kind: 'video', addEventListener: () => undefined } as unknown as MediaStreamTrack;
    void media.startScreenShare(track).catch(() => undefined);
    await vi.waitFor(() => expect(attaches).toHaveLength(3));

    // assert
    expect(sessions).toHaveLength(1);
    expect(sent.find((s) => s.kind === 'publisher' && s.request === 'join')?.token).toBe('room-token');
    expect(attaches[2]).toEqual({ kind: 'screen', token: 'room-token' });
    expect(sessions[0]!.iceServers).toEqual(turn);
    expect(stun).toEqual([{ urls: 'stun:stun.test' }]); // the caller's array is not ours to change
  });
});
