import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeWarmSocket, warmSocket } from '../src/media/warmSocket.ts';

/** A browser WebSocket's shape: opens when told to. */
class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  readonly url: string;
  readonly protocol: string;
  constructor(url: string, protocol: string) {
    super();
    this.url = url;
    this.protocol = protocol;
    FakeSocket.made.push(this);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new Event('close'));
  }
}

const SERVER = 'ws://lobby.test/janus';
let native: unknown;
beforeEach(() => {
  native = (globalThis as Record<string, unknown>).WebSocket;
  (globalThis as Record<string, unknown>).WebSocket = FakeSocket;
  FakeSocket.made = [];
});
afterEach(() => {
  (globalThis as Record<string, unknown>).WebSocket = native;
  takeWarmSocket(SERVER, 'janus-protocol'); // leave no warm socket to the next test
});

describe('warmSocket', () => {
  it('when a socket was opened ahead, then the next session gets it once, and its open is told again after janus.js listens', async () => {
    warmSocket(SERVER);
    warmSocket(SERVER); // one is enough
    expect(FakeSocket.made).toHaveLength(1);
    FakeSocket.made[0]!.open();

    const taken = takeWarmSocket(SERVER, 'janus-protocol') as unknown as FakeSocket;
    expect(taken).toBe(FakeSocket.made[0]);
    const opened = new Promise<void>((resolve) => taken.addEventListener('open', () => resolve()));
    await opened; // janus.js added its listener after the hand-over and still hears `open`
    expect(takeWarmSocket(SERVER, 'janus-protocol')).toBeNull();
  });

  it('when the warm socket closed, then none is handed over and the next warm-up opens a new one', () => {
    warmSocket(SERVER);
    FakeSocket.made[0]!.close();
    expect(takeWarmSocket(SERVER, 'janus-protocol')).toBeNull();
    warmSocket(SERVER);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('when the endpoint is the HTTP fallback or another protocol is asked, then nothing is opened or handed', () => {
    warmSocket('https://lobby.test/janus-http');
    expect(FakeSocket.made).toHaveLength(0);
    warmSocket(SERVER);
    expect(takeWarmSocket(SERVER, 'xmpp')).toBeNull();
  });
});
