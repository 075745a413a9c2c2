/**
 * The agent's standby media session (media/standby.ts): made while calls wait with the agent's standby
 * token, on the websocket endpoint only, handed to the next call with that call's grant, once; a session
 * that is lost, closed or past half its token's life is not handed over.
 */
import { describe, expect, it } from 'vitest';
import { Emitter } from '../src/emitter.ts';
import type { MediaEvents, MediaSessionOptions } from '../src/ports/media.ts';
import { MediaStandby, P2P_RECHECK_MS, STANDBY_RETRY_MS, type StandbyRequest } from '../src/media/standby.ts';

class FakeSession extends Emitter<MediaEvents> {
  prepared = false;
  closed = false;
  grants: Array<{ token: string; iceServers: RTCIceServer[] | undefined }> = [];
  readonly options: MediaSessionOptions;
  #fail: boolean;
  constructor(options: MediaSessionOptions, fail: boolean) {
    super();
    this.options = options;
    this.#fail = fail;
  }
  async standBy(): Promise<void> {
    await Promise.resolve();
    if (this.#fail) throw new Error('Lost connection to the server (is it down?)');
    this.prepared = true;
  }
  useGrant(token: string, iceServers: RTCIceServer[] | undefined): void {
    this.grants.push({ token, iceServers });
  }
  /** an event of the real session's, told by the test */
  tell<K extends keyof MediaEvents>(event: K, payload: MediaEvents[K]): void {
    this.emit(event, payload);
  }
  close(): Promise<void> {
    this.closed = true;
    this.prepared = false;
    return Promise.resolve();
  }
}

const SERVERS = ['ws://janus.test/janus', 'http://janus.test/janus-http'];
const STUN = [{ urls: 'stun:stun.test' }];
const TURN_OF_THE_ANSWER = [{ urls: 'turn:turn.test', username: 'fresh', credential: 'c' }];

function setUp(options: { failing?: number; wanted?: () => boolean } = {}) {
  let clock = 1_000_000;
  let timers: Array<{ at: number; run: () => void }> = [];
  let failing = options.failing ?? 0;
  const made: FakeSession[] = [];
  const ready: boolean[] = [];
  const standby = new MediaStandby(
    (o) => {
      const session = new FakeSession(o, failing-- > 0);
      made.push(session);
      return session;
    },
    {
      now: () => clock,
      setTimeout(run, ms) {
        const timer = { at: clock + ms, run };
        timers.push(timer);
        return () => (timers = timers.filter((t) => t !== timer));
      },
    },
  );
  let tokens = 0;
  const request: StandbyRequest = {
    iceServers: STUN,
    token: () => Promise.resolve({ token: `standby-${++tokens}`, expires_in: 3600 }),
    onReady: (r) => ready.push(r),
    ...(options.wanted ? { wanted: options.wanted } : {}),
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  /** moves the clock on, running the timers that come due */
  const advance = (ms: number) => {
    clock += ms;
    const due = timers.filter((t) => t.at <= clock);
    timers = timers.filter((t) => t.at > clock);
    for (const t of due) t.run();
  };
  return { standby, made, ready, request, settle, advance };
}

const grant = { servers: SERVERS, iceServers: TURN_OF_THE_ANSWER, token: 'room-token' };

describe('MediaStandby', () => {
  it('when calls wait, then one session is made with the standby token on the websocket endpoint, and the next call takes it with its grant, once', async () => {
    const { standby, made, ready, request, settle } = setUp();
    standby.prepare(SERVERS, request);
    standby.prepare(SERVERS, request); // a second change of the desk while the first is being made
    await settle();

    expect(made).toHaveLength(1);
    expect(made[0]!.options).toEqual({ servers: ['ws://janus.test/janus'], iceServers: STUN, token: 'standby-1', attempts: 1 });
    expect(ready).toEqual([true]);
    expect(standby.ready).toBe(true);

    const taken = standby.take(grant);
    expect(taken).toBe(made[0]);
    expect(made[0]!.grants).toEqual([{ token: 'room-token', iceServers: TURN_OF_THE_ANSWER }]);
    expect(ready).toEqual([true, false]);
    expect(standby.take(grant)).toBeNull();
  });

  it('when the call has no Janus token (p2p) or another endpoint, then the standby session is not taken', async () => {
    const { standby, request, settle } = setUp();
    standby.prepare(SERVERS, request);
    await settle();

    expect(standby.take({ servers: [], iceServers: STUN })).toBeNull();
    expect(standby.take({ ...grant, servers: ['ws://elsewhere.test/janus'] })).toBeNull();
    expect(standby.take(grant)).not.toBeNull();
  });

  it('when there is no websocket endpoint, then no standby session is made (the gate takes the token there only)', async () => {
    const { standby, made, request, settle } = setUp();
    standby.prepare(['http://janus.test/janus-http'], request);
    await settle();
    expect(made).toHaveLength(0);
  });

  it.each([
    ['lost (Janus restarted)', (s: FakeSession) => s.tell('lost', { error: 'Janus restarted' })],
    ['being claimed back (its websocket dropped)', (s: FakeSession) => s.tell('reconnecting', { error: 'Lost connection' })],
  ])('when the standby session is %s, then it is ended, not taken, and another is made by itself', async (_what, happen) => {
    const { standby, made, ready, request, settle, advance } = setUp();
    standby.prepare(SERVERS, request);
    await settle();
    happen(made[0]!);

    expect(ready).toEqual([true, false]);
    expect(made[0]!.closed).toBe(true);
    expect(standby.take(grant)).toBeNull();
    advance(0);
    await settle();
    expect(made).toHaveLength(2);
    expect(made[1]!.options.token).toBe('standby-2');
    expect(standby.take(grant)).toBe(made[1]);
  });

  it('when half of its token life has passed, then the session is closed and another is made (it may become a long call)', async () => {
    const { standby, made, request, settle, advance } = setUp();
    standby.prepare(SERVERS, request);
    await settle();
    advance(1800 * 1000 + 1);

    expect(standby.take(grant)).toBeNull();
    standby.prepare(SERVERS, request);
    await settle();
    expect(made[0]!.closed).toBe(true);
    expect(made).toHaveLength(2);
    expect(standby.take(grant)).toBe(made[1]);
  });

  it('when the media server is down, then the failed session is closed and the preparation is made again by itself after a pause', async () => {
    const { standby, made, request, settle, advance } = setUp({ failing: 1 });
    standby.prepare(SERVERS, request);
    await settle();
    await settle();
    expect(made[0]!.closed).toBe(true);
    expect(standby.ready).toBe(false);

    standby.prepare(SERVERS, request); // a change of the desk during the pause
    await settle();
    expect(made).toHaveLength(1);

    advance(STANDBY_RETRY_MS);
    await settle();
    expect(made).toHaveLength(2);
    expect(standby.ready).toBe(true);
  });

  it('when no standby session is wanted any more after the pause (the queue emptied, a call began), then none is made by itself', async () => {
    let wanted = true;
    const { standby, made, request, settle, advance } = setUp({ failing: 1, wanted: () => wanted });
    standby.prepare(SERVERS, request);
    await settle();
    await settle();
    wanted = false;
    advance(STANDBY_RETRY_MS);
    await settle();
    expect(made).toHaveLength(1);
  });

  it('when the deployment keeps no standby sessions, then none is made and the console is told it is ready', async () => {
    const { standby, made, ready, request, settle } = setUp();
    standby.prepare(SERVERS, { ...request, token: () => Promise.resolve({ standby: 'off' }) });
    await settle();
    expect(made).toHaveLength(0);
    expect(ready).toEqual([true]);
  });

  it('when the company uses p2p, then no session is made, the console is told it is ready, and it asks again only minutes later', async () => {
    const { standby, made, ready, request, settle, advance } = setUp();
    const p2p: StandbyRequest = { ...request, token: () => Promise.resolve({ method: 'p2p' }) };
    standby.prepare(SERVERS, p2p);
    await settle();
    expect(made).toHaveLength(0);
    expect(ready).toEqual([true]); // nothing stands between the agent and its answer

    advance(STANDBY_RETRY_MS);
    standby.prepare(SERVERS, request);
    await settle();
    expect(made).toHaveLength(0);
    advance(P2P_RECHECK_MS);
    standby.prepare(SERVERS, request);
    await settle();
    expect(made).toHaveLength(1);
  });

  it('when the console goes offline, then the standby session is closed, also one still being made', async () => {
    const { standby, made, request, settle } = setUp();
    standby.prepare(SERVERS, request);
    await settle();
    standby.close();
    expect(made[0]!.closed).toBe(true);

    standby.prepare(SERVERS, request);
    standby.close(); // while its token is being asked for
    await settle();
    await settle();
    expect(made).toHaveLength(1); // the token came after the close: no session was made with it
    expect(standby.ready).toBe(false);
  });
});
