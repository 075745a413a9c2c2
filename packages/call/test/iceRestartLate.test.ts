/**
 * An ICE restart is not sent when the path comes back by itself just after the signalling does
 * (media/janus/iceRestarts.ts PATH_RECOVERY_GRACE_MS, docs/protocol.md "ICE restart"): after a 20 s cut, restarts
 * sent 100 ms before both connections recovered moved them to new credentials for nothing and froze the
 * guest's incoming video a second time. On a fake janus.js (the module is replaced) and fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Callbacks = Record<string, (...args: unknown[]) => void>;
const pc = { iceConnectionState: 'connected' as RTCIceConnectionState };
const offers: unknown[] = [];
let publisher: Callbacks | null = null;

vi.mock('webrtc-adapter', () => ({ default: {} }));
vi.mock('janus-gateway', async () => {
  const { ConnectedFakeJanus } = await import('./helpers/fakeJanusLibrary.ts');
  class FakeJanus extends ConnectedFakeJanus {
    /** the session claimed on a new websocket: the signalling is back */
    reconnect(options: { success: () => void }) {
      setTimeout(options.success, 0);
    }
    attach(options: Callbacks & { opaqueId: string }) {
      const kind = options.opaqueId.split('-')[1];
      const handle = {
        webrtcStuff: { pc },
        send: ({ success }: { success?: (d?: unknown) => void }) => setTimeout(() => success?.({}), 0),
        createOffer: (o: { iceRestart?: boolean; success: (jsep: unknown) => void }) => {
          offers.push(o.iceRestart);
          setTimeout(() => o.success({ type: 'offer', sdp: 'v=0' }), 0);
        },
        handleRemoteJsep: () => undefined,
        detach: () => undefined,
      };
      if (kind === 'publisher') publisher = options;
      setTimeout(() => options.success!(handle), 0);
    }
  }
  return { default: FakeJanus };
});

async function publishing() {
  const { MediaSession } = await import('../src/media/mediaSession.ts');
  const { browserClock } = await import('../src/composition.ts');
  const media = new MediaSession({ servers: ['ws://janus.test'], iceServers: [], attempts: 1 }, browserClock);
  // connected on real time (janus.js's module loads on its own), then the clock is the test's
  await media.connect();
  await media.attachPublisher();
  vi.useFakeTimers();
  return media;
}

/** The publisher's path drops, and the restarter's grace (2 s) runs out. */
async function pathDrops(): Promise<void> {
  pc.iceConnectionState = 'disconnected';
  publisher!.iceState!('disconnected');
  await vi.advanceTimersByTimeAsync(2000);
}

beforeEach(() => {
  pc.iceConnectionState = 'connected';
  offers.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('ICE restart after the network returns', () => {
  it('when the path comes back by itself just after the signalling, then no restart is sent', async () => {
    const media = await publishing();
    await pathDrops();
    // the signalling was claimed again at once; the old path answers 300 ms later
    await vi.advanceTimersByTimeAsync(300);
    pc.iceConnectionState = 'connected';
    publisher!.iceState!('connected');
    await vi.advanceTimersByTimeAsync(5000);
    expect(offers).toEqual([]);
    void media.close();
  });

  it('when the path stays down, then the restart is sent once the grace is over', async () => {
    const media = await publishing();
    await pathDrops();
    await vi.advanceTimersByTimeAsync(2000);
    expect(offers).toEqual([]);
    await vi.advanceTimersByTimeAsync(700);
    expect(offers).toEqual([true]);
    void media.close();
  });

  it('when the connection failed, then the restart is sent at once (a failed path never comes back by itself)', async () => {
    const media = await publishing();
    pc.iceConnectionState = 'failed';
    publisher!.iceState!('failed');
    await vi.advanceTimersByTimeAsync(50);
    expect(offers).toEqual([true]);
    void media.close();
  });
});
