/**
 * The connection to Janus of one media session (docs/protocol.md "Media session", "Session reclaim"),
 * after janode's Connection/Session: connect with fail-over between the endpoints, claim the session
 * back on a new transport when one drops (and renew it before an ICE restart), attach handles, send
 * plugin requests with a timeout. janus.js sends the session's keepalives itself while it lives; `end`
 * stops every retry and reclaim, `destroy` ends the session (its handles with it).
 */
import type { ClockPort } from '../../ports/clock.ts';
import type { HandleKind, TellMedia } from '../../ports/media.ts';
import { isTransientGatewayError, retry } from '../retry.ts';
import {
  loadJanus,
  pluginError,
  watchingSockets,
  type Handle,
  type JanusClass,
  type JanusInstance,
  type Jsep,
  type Message,
  type PluginCallbacks,
} from './library.ts';

/** How long connecting to one endpoint may take before the next is tried ('Request timed out'). */
export const CONNECT_TIMEOUT_MS = 8000;
/** How long one gateway request may wait for its answer (a transport that dropped never answers). */
export const REQUEST_TIMEOUT_MS = 15000;
/** Claims of a dropped session, about a second apart: within Janus's reclaim_session_timeout (30 s). */
export const RECLAIM_ATTEMPTS = 20;
/** A transport renewed this recently serves the next restart too (the publisher's and the subscriber's). */
export const RENEWED_RECENTLY_MS = 5000;
/** How long destroying the session may take before the close goes on without its answer. */
const DESTROY_TIMEOUT_MS = 3000;

export interface JanusConnectionOptions {
  /** Endpoints tried in order: the websocket first, the HTTP fallback second. */
  servers: string[];
  iceServers?: RTCIceServer[];
  /** the session's token (a grant's, or an agent's standby token) */
  token?: string;
  debug?: boolean;
  /** attempts of each gateway call (docs/protocol.md "Constants") */
  attempts: number;
  clock: ClockPort;
  tell: TellMedia;
  /** janus.js (library.ts); tests hand a fake class */
  load?: (debug: boolean) => Promise<JanusClass>;
}

export class JanusConnection {
  readonly #o: JanusConnectionOptions;
  #janus: JanusInstance | null = null;
  #Janus: JanusClass | null = null;
  #ended = false;
  /** the reclaim under way (a dropped transport, or one renewed for an ICE restart) */
  #reclaiming: Promise<void> | null = null;
  /** ends the reclaim's wait before its next claim at once (claimNow) */
  #cutClaimWait: (() => void) | null = null;
  /** when the transport was last renewed for an ICE restart */
  #renewedAt = -Infinity;
  /** the token of the handles' requests when it is not the session's (a standby session given its grant) */
  #handleToken: string | null = null;
  readonly #handles = new Set<Handle>();
  /**
   * The ICE servers janus.js is given: an array of our own, because janus.js reads it each time it makes a
   * peer connection, and a session made before its call takes the TURN credentials of the answer (useGrant).
   */
  readonly #iceServers: RTCIceServer[] | undefined;

  constructor(options: JanusConnectionOptions) {
    this.#o = options;
    this.#iceServers = options.iceServers ? [...options.iceServers] : undefined;
  }

  get connected(): boolean {
    return this.#janus !== null;
  }

  /** true once the session is being closed: no retry, claim or restart goes on */
  get ended(): boolean {
    return this.#ended;
  }

  get attempts(): number {
    return this.#o.attempts;
  }

  /**
   * Connects to the first answering endpoint (a fallback list: the websocket, then HTTP), whichever way
   * the first fails (refused, closed before the session exists, or silent past CONNECT_TIMEOUT_MS); the
   * whole round is tried again up to `attempts` times, each retry told as 'connectRetry'.
   */
  async connect(): Promise<void> {
    // a standby session handed to its call is connected already
    if (this.#janus) return;
    const Janus = await (this.#o.load ?? loadJanus)(this.#o.debug ?? false);
    this.#Janus = Janus;
    if (!Janus.isWebrtcSupported()) throw new Error('WebRTC not supported by this browser');
    this.#janus = await retry(() => this.#connectAny(Janus), {
      attempts: this.attempts,
      stopIf: () => this.#ended,
      transient: isTransientGatewayError,
      onRetry: (error, attempt) => this.#o.tell('connectRetry', { attempt, error: String(error) }),
    });
    if (this.#ended) throw new Error('closed');
  }

  async #connectAny(Janus: JanusClass): Promise<JanusInstance> {
    let last: unknown = null;
    for (const server of this.#o.servers) {
      try {
        return await this.#connectOne(Janus, server);
      } catch (error) {
        last = error;
        // an answer refusing us (a bad token) is the same on every endpoint
        if (!isTransientGatewayError(error)) throw error;
      }
    }
    throw new Error(`Error connecting to any of the provided Janus servers: Is the server down? (${String(last)})`);
  }

  #connectOne(Janus: JanusClass, server: string): Promise<JanusInstance> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const sockets: WebSocket[] = [];
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        console.warn(`media: ${server}: ${error.message}`);
        cancel();
        // janus.js would go on waiting: stop it (its session, if one comes late, is destroyed below)
        for (const ws of sockets) ws.close();
        reject(error);
      };
      const cancel = this.#o.clock.setTimeout(() => fail(new Error(`Request timed out (${server})`)), CONNECT_TIMEOUT_MS);
      const watch = (ws: WebSocket) => {
        sockets.push(ws);
        ws.addEventListener('close', () => fail(new Error('Lost connection to the server (is it down?)')));
      };
      const janus: JanusInstance = watchingSockets(
        watch,
        () =>
          new Janus({
            server,
            iceServers: this.#iceServers,
            ...(this.#o.token ? { token: this.#o.token } : {}),
            destroyOnUnload: true,
            success: () => {
              // a session that came after we gave up (a slow HTTP answer): nobody uses it
              if (settled) return janus.destroy({ notifyDestroyed: false });
              settled = true;
              cancel();
              console.info(`media: session ${String(janus.getSessionId())} on ${server}`);
              resolve(janus);
            },
            error: (error: unknown) => {
              if (!settled) fail(new Error(String(error)));
              else if (janus === this.#janus) void this.#onTransportLost(janus, String(error));
            },
            destroyed: () => this.#o.tell('destroyed', undefined),
          }),
      );
    });
  }

  /**
   * The transport dropped ("Lost connection to the server (is it down?)"). The peer connections do not
   * depend on it, and Janus keeps the session for reclaim_session_timeout: claim it on a new connection
   * (janus.js `reconnect`) until it is back or Janus says it is gone (Janus restarted).
   */
  #onTransportLost(janus: JanusInstance, error: string): Promise<void> {
    if (this.#ended) return Promise.resolve();
    this.#reclaiming ??= this.#reclaim(janus, error, true).finally(() => (this.#reclaiming = null));
    return this.#reclaiming;
  }

  /**
   * Before an ICE restart, the signalling goes over a fresh websocket (the session claimed on it): after
   * a network cut the old one is stuck behind TCP's retransmission back-off in both directions (tens of
   * seconds after the network is back), so an offer sent on it reaches Janus late and its answer later
   * still, and Janus hangs up a connection whose restart does not complete within ~12 s. A claim made
   * while the network is still gone times out and is made again, so this also waits for the network.
   */
  renewTransport(): Promise<void> {
    const janus = this.#janus;
    const now = this.#o.clock.now();
    if (!janus || this.#ended || now - this.#renewedAt < RENEWED_RECENTLY_MS) return Promise.resolve();
    // a renewal is ours, not a failure: no 'reconnecting' (the ICE restart is told already)
    this.#reclaiming ??= this.#reclaim(janus, 'renewing the transport for an ICE restart', false).finally(
      () => (this.#reclaiming = null),
    );
    return this.#reclaiming.then(() => {
      this.#renewedAt = this.#o.clock.now();
    });
  }

  async #reclaim(janus: JanusInstance, error: string, tell: boolean): Promise<void> {
    if (tell) this.#o.tell('reconnecting', { error });
    try {
      await retry(() => this.#claim(janus), {
        attempts: RECLAIM_ATTEMPTS,
        delayMs: 500,
        maxDelayMs: 1500,
        stopIf: () => this.#ended,
        transient: isTransientGatewayError,
        wait: (ms) => this.#claimWait(ms),
        // Janus unreachable: the engines may move the call to a new session meanwhile (mediaHealth.ts)
        onRetry: (failure, attempt) => {
          if (!this.#ended) this.#o.tell('claimFailed', { attempt, error: String(failure) });
        },
      });
      if (this.#ended) {
        // closed while this claim was under way (the call moved to a new session): the session it claimed
        // back is nobody's, and would otherwise stay in its room with its keepalives (docs/protocol.md
        // "Media session lost")
        janus.destroy({ cleanupHandles: true, notifyDestroyed: false });
        return;
      }
      if (tell) this.#o.tell('reconnected', undefined);
    } catch (lost) {
      if (!this.#ended) this.#o.tell('lost', { error: String(lost) });
    }
  }

  /** The wait between two claims, on the clock; claimNow ends it. */
  #claimWait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        cancel();
        if (this.#cutClaimWait === done) this.#cutClaimWait = null;
        resolve();
      };
      const cancel = this.#o.clock.setTimeout(done, ms);
      this.#cutClaimWait = done;
    });
  }

  /**
   * The next claim of a dropped session now rather than after its wait: the server refused to move the
   * call because the room's node answers (docs/protocol.md "Janus unreachable: the call moves"), so a claim
   * is answered now — with the session, or without it when the other side has just moved the room, and
   * the call rejoins there. Nothing when no claim is waiting.
   */
  claimNow(): void {
    this.#cutClaimWait?.();
  }

  #claim(janus: JanusInstance): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = (error?: Error) => {
        if (settled) return;
        settled = true;
        cancel();
        if (error) reject(error);
        else resolve();
      };
      const sockets: WebSocket[] = [];
      const cancel = this.#o.clock.setTimeout(() => {
        done(new Error('Request timed out (claim)'));
        // a socket still connecting (the network gone) must not claim the session later, behind the next
        for (const ws of sockets) if (ws.readyState === WebSocket.CONNECTING) ws.close();
      }, CONNECT_TIMEOUT_MS);
      const watch = (ws: WebSocket) => {
        sockets.push(ws);
        ws.addEventListener('close', () => done(new Error('Lost connection to the server (is it down?)')));
      };
      console.info(`media: claiming session ${String(janus.getSessionId())}`);
      watchingSockets(watch, () =>
        janus.reconnect({ success: () => done(), error: (e: unknown) => done(new Error(String(e))) }),
      );
    });
  }

  /**
   * Hands the session's handles, and any attached later, the call's room token, and its next peer
   * connections `iceServers` (MediaSession.useGrant).
   */
  useGrant(token: string, iceServers: RTCIceServer[] | undefined): void {
    this.#handleToken = token;
    for (const handle of this.#handles) (handle as Handle & { token?: string }).token = token;
    if (this.#iceServers && iceServers) this.#iceServers.splice(0, this.#iceServers.length, ...iceServers);
  }

  /** Attaches a videoroom handle (retried); `kind` names it in Janus's opaque id. */
  attach(kind: HandleKind, callbacks: PluginCallbacks): Promise<Handle> {
    const janus = this.#janus;
    const Janus = this.#Janus;
    if (!janus || !Janus) return Promise.reject(new Error('Library not initialized'));
    return retry(
      () =>
        new Promise<Handle>((resolve, reject) =>
          janus.attach({
            plugin: 'janus.plugin.videoroom',
            opaqueId: `lobby-${kind}-${Janus.randomString(12)}`,
            ...(this.#handleToken ? { token: this.#handleToken } : {}),
            success: resolve,
            error: (e: string) => reject(new Error(e)),
            ...callbacks,
          }),
        ),
      { attempts: this.attempts, stopIf: () => this.#ended },
    ).then((handle) => {
      this.#handles.add(handle);
      return handle;
    });
  }

  /** Hangs up and detaches a handle (a screen share's end). */
  async detach(handle: Handle): Promise<void> {
    this.#handles.delete(handle);
    handle.hangup();
    await new Promise<void>((resolve) => handle.detach({ success: resolve, error: () => resolve() }));
  }

  /** One plugin request; a transport that dropped never answers, hence the timeout. */
  request<T = Message>(handle: Handle, message: Record<string, unknown>, jsep?: Jsep): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.#o.clock.setTimeout(
        () => reject(new Error(`Request timed out (${String(message.request)})`)),
        REQUEST_TIMEOUT_MS,
      );
      handle.send({
        message: message as Parameters<Handle['send']>[0]['message'],
        ...(jsep ? { jsep } : {}),
        success: (data?: unknown) => {
          cancel();
          const error = data ? pluginError(data) : null;
          if (error) reject(error);
          else resolve(data as T);
        },
        error: (e: string) => {
          cancel();
          reject(new Error(e));
        },
      });
    });
  }

  /**
   * A gateway step retried ("Constants" of docs/protocol.md). A request answered with an error (a wrong
   * pin) is final; an offer or answer the browser failed to make (`anyError`) is made again.
   */
  retried<T>(step: () => Promise<T>, anyError = false): Promise<T> {
    return retry(step, {
      attempts: this.attempts,
      stopIf: () => this.#ended,
      ...(anyError ? {} : { transient: isTransientGatewayError }),
    });
  }

  /** The session is being closed: retries, claims and restarts stop from now on. */
  end(): void {
    this.#ended = true;
  }

  /** Destroys the session and its handles (waits DESTROY_TIMEOUT_MS at most for Janus's answer). */
  async destroy(): Promise<void> {
    this.#ended = true;
    const janus = this.#janus;
    this.#janus = null;
    this.#handles.clear();
    if (!janus) return;
    await new Promise<void>((resolve) => {
      const cancel = this.#o.clock.setTimeout(resolve, DESTROY_TIMEOUT_MS);
      const done = () => {
        cancel();
        resolve();
      };
      janus.destroy({ cleanupHandles: true, success: done, error: done });
    });
  }
}
