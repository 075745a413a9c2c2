/**
 * A fake janus.js for the modules of src/media/janus/ (handed to them as their `load`, not a replaced
 * module): each endpoint answers as a test says (a session, a refusal, or silence), the session can drop
 * its transport and be claimed back, and its handles record every request and answer it as the test's
 * `answer` says. Time is the test's FakeClock (the modules take the ports' clock).
 */
import type { JanusClass } from '../../src/media/janus/library.ts';
import type { TellMedia, MediaEvents } from '../../src/ports/media.ts';

export type Endpoint = 'answers' | 'refuses' | 'silent';
type Callbacks = Record<string, ((...args: never[]) => void) | undefined>;

export interface FakeHandle {
  kind: string;
  token?: string;
  callbacks: Callbacks;
  sent: Array<{ message: Record<string, unknown>; jsep?: unknown }>;
  webrtcStuff: { pc: unknown };
  hungUp: boolean;
  detached: boolean;
  send(options: { message: Record<string, unknown>; jsep?: unknown; success?: (data?: unknown) => void; error?: (e: string) => void }): void;
  createOffer(options: { iceRestart?: boolean; success: (jsep: unknown) => void }): void;
  createAnswer(options: { success: (jsep: unknown) => void }): void;
  handleRemoteJsep(): void;
  hangup(): void;
  detach(options: { success: () => void }): void;
}

export class FakeJanusServer {
  /** how each endpoint answers a new session */
  endpoints = new Map<string, Endpoint>();
  /** how a claim of the session on a new transport ends ('down': Janus unreachable, the claim is made again) */
  claim: 'ok' | 'gone' | 'down' = 'ok';
  /** what a claim waits for before it is answered (a test holds it: a claim under way) */
  claimGate: Promise<void> | null = null;
  /**
   * `destroys`: the destroy calls made on the session (janus.js sends one to Janus only while connected, as
   * a claim that succeeded makes it again; one made while the transport is down only forgets the session)
   */
  readonly sessions: Array<{ server: string; error: (e: unknown) => void; destroyed: boolean; destroys: number }> = [];
  readonly handles: FakeHandle[] = [];
  readonly offers: Array<{ kind: string; iceRestart: boolean }> = [];
  claims = 0;
  /** answers a handle's request: the data of its success, or null to leave it unanswered */
  answer: (handle: FakeHandle, message: Record<string, unknown>) => unknown = () => ({});

  /** janus.js's Janus class, bound to this server */
  library(): JanusClass {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const server = this;
    class FakeJanus {
      static isWebrtcSupported = () => true;
      static randomString = () => 'r';
      readonly #session: FakeJanusServer['sessions'][number];
      constructor(options: { server: string; success: () => void; error: (e: unknown) => void }) {
        this.#session = { server: options.server, error: options.error, destroyed: false, destroys: 0 };
        server.sessions.push(this.#session);
        const endpoint = server.endpoints.get(options.server) ?? 'answers';
        if (endpoint === 'answers') queueMicrotask(options.success);
        if (endpoint === 'refuses') queueMicrotask(() => options.error('Lost connection to the server (is it down?)'));
      }
      getSessionId = () => 7;
      reconnect(options: { success: () => void; error: (e: unknown) => void }) {
        server.claims++;
        const answer = () => {
          if (server.claim === 'ok') options.success();
          else options.error(server.claim === 'gone' ? 'No such session 7' : 'Lost connection to the server (is it down?)');
        };
        if (server.claimGate) void server.claimGate.then(answer);
        else queueMicrotask(answer);
      }
      attach(options: Callbacks & { opaqueId: string; token?: string; success: (handle: FakeHandle) => void }) {
        const handle: FakeHandle = {
          kind: options.opaqueId.split('-')[1]!,
          ...(options.token ? { token: options.token } : {}),
          callbacks: options,
          sent: [],
          webrtcStuff: { pc: null },
          hungUp: false,
          detached: false,
          send({ message, jsep, success }) {
            handle.sent.push({ message, ...(jsep ? { jsep } : {}) });
            const data = server.answer(handle, message);
            if (data !== null) queueMicrotask(() => success?.(data));
          },
          createOffer({ iceRestart, success }) {
            server.offers.push({ kind: handle.kind, iceRestart: !!iceRestart });
            queueMicrotask(() => success({ type: 'offer', sdp: 'v=0' }));
          },
          createAnswer({ success }) {
            queueMicrotask(() => success({ type: 'answer', sdp: 'v=0' }));
          },
          handleRemoteJsep: () => undefined,
          hangup: () => void (handle.hungUp = true),
          detach({ success }) {
            handle.detached = true;
            success();
          },
        };
        server.handles.push(handle);
        queueMicrotask(() => options.success(handle));
      }
      destroy(options?: { success?: () => void }) {
        this.#session.destroyed = true;
        this.#session.destroys++;
        options?.success?.();
      }
    }
    return FakeJanus as unknown as JanusClass;
  }

  /** The transport of the last session drops (janus.js's `error` after the session exists). */
  dropTransport(): void {
    this.sessions.at(-1)!.error('Lost connection to the server (is it down?)');
  }
}

/** Records what a module tells (a transport's events), in order. */
export function recordedEvents(): { tell: TellMedia; events: Array<[keyof MediaEvents, unknown]> } {
  const events: Array<[keyof MediaEvents, unknown]> = [];
  return { events, tell: (event, payload) => void events.push([event, payload]) };
}
