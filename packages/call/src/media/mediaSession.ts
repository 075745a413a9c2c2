/**
 * A media session on the Janus videoroom plugin (docs/protocol.md "Media session", "Media room").
 *
 * One session per call: a publisher handle (own camera/microphone), an optional second publisher for
 * the screen (`{display}-screen`), and one multistream subscriber handle that carries every other
 * participant's feeds. janus.js and webrtc-adapter are loaded on first use.
 */
import type { JanusJS } from 'janus-gateway';
import { Emitter } from '../emitter.ts';
import { isTransientGatewayError, retry } from './retry.ts';
import { keepSendableCamera } from './cameraGuard.ts';
import { DEFAULT_VIDEO_CONSTRAINTS } from './devices.ts';
import { canWatermark, watermarkTrack, type WatermarkOptions, type Watermarked } from './watermark.ts';
import { IceRestarter } from './iceRestart.ts';
import { reusedTracks } from './reusedTracks.ts';
import { takeWarmSocket } from './warmSocket.ts';
import { startSmall } from './startSmall.ts';

type JanusClass = typeof JanusJS.Janus;
type Handle = JanusJS.PluginHandle;
type Message = JanusJS.Message;
type Jsep = JanusJS.JSEP;
type HandleKind = 'publisher' | 'subscriber' | 'screen';

/** The stages docs/protocol.md "Media session" tracks; a failure of any one is reported as a call bug. */
export type CallStage =
  'createRoom' | 'joinRoom' | 'createOffer' | 'createAnswer' | 'localStream' | 'remoteStream';

export interface Publisher {
  id: string;
  display: string;
  streams?: { type: string; mid: string; codec?: string }[];
}

/** A remote participant's feed, as one MediaStream of its audio and video tracks. */
export interface RemoteFeed {
  feedId: string;
  display: string;
  stream: MediaStream;
}

export interface MediaSessionOptions {
  /** Endpoints tried in order: the websocket first, the HTTP fallback second. */
  servers: string[];
  iceServers: RTCIceServer[];
  debug?: boolean;
  /** Attempts for each gateway call (docs/protocol.md "Constants": 20). */
  attempts?: number;
  /**
   * The Janus token of the session: the server's media grant (one room, one participant), or an agent's
   * standby token for a session made before the answer (media/standby.ts; `useGrant` then gives its
   * handles the room's token).
   */
  token?: string;
}

export interface RoomOptions {
  room: string;
  pin: string;
  /** webview=true: H264 profile 42e01f for in-app webviews (docs/protocol.md "Constants") */
  webview?: boolean;
  description?: string;
}

export interface PublishOptions {
  stream: MediaStream;
  audio: boolean;
  video: boolean;
  /** the company's stream watermark, drawn into the sent camera video (also after a device change) */
  watermark?: WatermarkOptions | null;
}

/** A device change during the call: another microphone or camera, or the front/back camera. */
export interface DeviceChoice {
  audioDeviceId?: string;
  videoDeviceId?: string;
  backCam?: boolean;
}

export interface ChangeDevicesOptions {
  /** a video call (a voice call changes only its microphone) */
  video: boolean;
  videoConstraints?: MediaTrackConstraints;
  /** how long the encoder may take to put out the new camera's first frames */
  probeMs?: number;
}


export type MediaEvents = {
  stage: { stage: CallStage; ok: boolean; error?: string };
  remoteFeed: RemoteFeed;
  remoteFeedRemoved: { feedId: string; display: string };
  /**
   * Someone else's publisher is in the room (announced; its `remoteFeed` follows once our subscription to
   * it is negotiated, which can take seconds on a busy machine). With `publisherLeft` it tells who is in
   * the call before their media arrives: a transfer's new agent, for instance.
   */
  publisherJoined: { feedId: string; display: string };
  publisherLeft: { feedId: string; display: string };
  screenEnded: void;
  /**
   * ICE restart (media/iceRestart.ts, docs/protocol.md "ICE restart"): a peer connection lost its path
   * and is being restarted ('iceRestarting'), came back ('iceRestarted'), or stayed down through every
   * restart ('iceFailed': the media is lost).
   */
  iceRestarting: { handle: HandleKind };
  iceRestarted: { handle: HandleKind };
  iceFailed: { handle: HandleKind };
  destroyed: void;
  error: Error;
  /** p2p: the peer (full JID) took none of our session-initiates, through every attempt (p2pTransport.ts) */
  peerUnreachable: { peer: string; error: string };
  /** connecting failed and is tried again (Janus down or unreachable): the engines tell the user */
  connectRetry: { attempt: number; error: string };
  /**
   * The transport to Janus dropped (docs/protocol.md "Session reclaim"): the media goes on meanwhile and
   * the session is claimed on a new connection ('reconnected'), or it is gone ('lost': Janus restarted
   * or crashed, the call's media is over).
   */
  reconnecting: { error: string };
  reconnected: void;
  lost: { error: string };
  /** p2p: the peer put the call on hold (Jingle session-info <hold/>) */
  held: { peer: string };
};

/** How long connecting to one endpoint may take before the next is tried ('Request timed out'). */
export const CONNECT_TIMEOUT_MS = 8000;
/** How long one gateway request may wait for its answer (a transport that dropped never answers). */
export const REQUEST_TIMEOUT_MS = 15000;
/** Claims of a dropped session, about a second apart: within Janus's reclaim_session_timeout (30 s). */
export const RECLAIM_ATTEMPTS = 20;
/** A transport renewed this recently serves the next restart too (the publisher's and the subscriber's). */
export const RENEWED_RECENTLY_MS = 5000;
/** A restart request unanswered for this long is taken as lost (its transport was replaced): sent again. */
export const PENDING_RESTART_MS = 40_000;
/**
 * Once the signalling is back (the network returned), how long a `disconnected` path is given to come
 * back by itself before it is restarted: Chromium's consent checks find the old path again within a
 * second or so, and a restart landing after that (seen 100 ms later after a 20 s cut) switches the
 * connection to new credentials for nothing, freezing the incoming video a second time for seconds.
 */
export const PATH_RECOVERY_GRACE_MS = 2500;

/** A websocket janus.js opened, watched so that a close before its session exists is not ignored. */
let watchSocket: ((ws: WebSocket) => void) | null = null;

let janusReady: Promise<JanusClass> | null = null;

const realClock = {
  now: () => Date.now(),
  setTimeout(run: () => void, ms: number): () => void {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

/** Loads janus.js with webrtc-adapter (lazy: both are large). */
export function loadJanus(debug = false): Promise<JanusClass> {
  janusReady ??= (async () => {
    const [{ default: Janus }, { default: adapter }] = await Promise.all([
      import('janus-gateway'),
      import('webrtc-adapter'),
    ]);
    await new Promise<void>((resolve) =>
      Janus.init({
        debug,
        callback: () => resolve(),
        dependencies: Janus.useDefaultDependencies({ adapter }),
      }),
    );
    // janus.js opens its websockets synchronously in `new Janus()` and `reconnect()`: the caller that
    // set watchSocket just before sees the socket (janus.js ignores a close before its session exists)
    // (janus.js sets newWebSocket in init(); its type declarations leave it out)
    const withSockets = Janus as unknown as { newWebSocket: (server: string, protocol: string) => WebSocket };
    const open = withSockets.newWebSocket;
    withSockets.newWebSocket = (server, protocol) => {
      // a socket the console opened while calls waited (warmSocket.ts), else a new one
      const ws = takeWarmSocket(server, protocol) ?? open(server, protocol);
      watchSocket?.(ws);
      return ws;
    };
    return Janus;
  })();
  return janusReady;
}

function pluginError(message: Message): Error | null {
  if (message.error_code || message.error) {
    return new Error(`Ooops: ${String(message.error_code ?? '')} ${String(message.error ?? '')}`.trim());
  }
  return null;
}

export class MediaSession extends Emitter<MediaEvents> {
  #janus: InstanceType<JanusClass> | null = null;
  #Janus: JanusClass | null = null;
  readonly #options: MediaSessionOptions;
  #room: RoomOptions | null = null;
  #display = '';
  #publisher: Handle | null = null;
  #screen: Handle | null = null;
  #subscriber: Handle | null = null;
  #myId: string | null = null;
  #screenId: string | null = null;
  #privateId: number | undefined;
  #joinWaiters: ((value: { id: string; privateId?: number; publishers: Publisher[] }) => void)[] = [];
  #joinFailures: ((error: Error) => void)[] = [];
  #configured: (() => void) | null = null;
  /** feeds we asked for or receive, by feed id */
  #feeds = new Map<string, { display: string; stream: MediaStream | null }>();
  /** subscriber mid → feed id, from the subscriber's `streams` lists */
  #midToFeed = new Map<string, string>();
  #subscribeQueue: Promise<void> = Promise.resolve();
  #screenTrack: MediaStreamTrack | null = null;
  #closed = false;
  localStream: MediaStream | null = null;
  #watermark: WatermarkOptions | null = null;
  /** the marked copy of the camera that is sent, while a watermark is on */
  #marked: Watermarked | null = null;
  /** the token of the handles' requests when it is not the session's (a standby session given its grant) */
  #handleToken: string | null = null;
  /**
   * The ICE servers janus.js is given: an array of our own, because janus.js reads it each time it makes a
   * peer connection, and a session made before its call takes the TURN credentials of the answer (useGrant).
   */
  readonly #iceServers: RTCIceServer[] | undefined;

  constructor(options: MediaSessionOptions) {
    super();
    this.#options = options;
    this.#iceServers = options.iceServers ? [...options.iceServers] : undefined;
  }

  /** Connected, with its publisher and subscriber handles attached, and not closed: ready for a room. */
  get prepared(): boolean {
    return this.#janus !== null && this.#publisher !== null && this.#subscriber !== null && !this.#closed;
  }

  /** Connects and attaches both handles, before any room is known (a standby session: media/standby.ts). */
  async standBy(): Promise<void> {
    await this.connect();
    await this.attachPublisher();
    await this.#subscriberHandle();
  }

  /**
   * Hands a session made before its call (an agent's standby session: media/standby.ts) the call's media
   * grant. janus.js sends a handle's own token with each of its requests (join, configure, trickle,
   * detach) and the session's token only with create, keepalive, claim and destroy: from now on every
   * handle, and any attached later (the screen), speaks with the room's token, which the gate requires
   * for all that touches a room. The peer connections made from now on use `iceServers` (fresh TURN
   * credentials).
   */
  useGrant(token: string, iceServers: RTCIceServer[] | undefined): void {
    this.#handleToken = token;
    for (const handle of [this.#publisher, this.#subscriber, this.#screen]) {
      if (handle) (handle as Handle & { token?: string }).token = token;
    }
    if (this.#iceServers && iceServers) this.#iceServers.splice(0, this.#iceServers.length, ...iceServers);
  }

  get attempts(): number {
    return this.#options.attempts ?? 20;
  }

  /**
   * Connects to the first answering endpoint (a fallback list: the websocket, then HTTP),
   * whichever way the first fails (refused, closed before the session exists, or silent past
   * CONNECT_TIMEOUT_MS); the whole round is tried again up to `attempts` times (the connection marked down
   * and set up again), each retry told as 'connectRetry'.
   */
  async connect(): Promise<void> {
    // a standby session handed to its call is connected already
    if (this.#janus) return;
    const Janus = await loadJanus(this.#options.debug);
    this.#Janus = Janus;
    if (!Janus.isWebrtcSupported()) throw new Error('WebRTC not supported by this browser');
    this.#janus = await retry(() => this.#connectAny(Janus), {
      attempts: this.attempts,
      stopIf: () => this.#closed,
      transient: isTransientGatewayError,
      onRetry: (error, attempt) => this.emit('connectRetry', { attempt, error: String(error) }),
    });
    if (this.#closed) throw new Error('closed');
  }

  async #connectAny(Janus: JanusClass): Promise<InstanceType<JanusClass>> {
    let last: unknown = null;
    for (const server of this.#options.servers) {
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

  #connectOne(Janus: JanusClass, server: string): Promise<InstanceType<JanusClass>> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const sockets: WebSocket[] = [];
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        console.warn(`media: ${server}: ${error.message}`);
        clearTimeout(timer);
        // janus.js would go on waiting: stop it (its session, if one comes late, is destroyed below)
        for (const ws of sockets) ws.close();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error(`Request timed out (${server})`)), CONNECT_TIMEOUT_MS);
      watchSocket = (ws) => {
        sockets.push(ws);
        ws.addEventListener('close', () => fail(new Error('Lost connection to the server (is it down?)')));
      };
      const janus: InstanceType<JanusClass> = new Janus({
        server,
        iceServers: this.#iceServers,
        ...(this.#options.token ? { token: this.#options.token } : {}),
        destroyOnUnload: true,
        success: () => {
          // a session that came after we gave up (a slow HTTP answer): nobody uses it
          if (settled) return janus.destroy({ notifyDestroyed: false });
          settled = true;
          clearTimeout(timer);
          console.info(`media: session ${String(janus.getSessionId())} on ${server}`);
          resolve(janus);
        },
        error: (error: unknown) => {
          if (!settled) fail(new Error(String(error)));
          else if (janus === this.#janus) void this.#onTransportLost(janus, String(error));
        },
        destroyed: () => this.emit('destroyed', undefined),
      });
      watchSocket = null;
    });
  }

  /** the reclaim under way (a dropped transport, or one renewed for an ICE restart) */
  #reclaiming: Promise<void> | null = null;
  /** when the transport was last renewed for an ICE restart */
  #renewedAt = 0;

  /**
   * The transport dropped ("Lost connection to the server (is it down?)"). The peer connections do not
   * depend on it, and Janus keeps the session for reclaim_session_timeout: claim it on a new connection
   * (janus.js `reconnect`) until it is back or Janus says it is gone (Janus restarted).
   */
  #onTransportLost(janus: InstanceType<JanusClass>, error: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
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
  #renewTransport(): Promise<void> {
    const janus = this.#janus;
    if (!janus || this.#closed || Date.now() - this.#renewedAt < RENEWED_RECENTLY_MS) return Promise.resolve();
    // a renewal is ours, not a failure: no 'reconnecting' (the ICE restart is told already)
    this.#reclaiming ??= this.#reclaim(janus, 'renewing the transport for an ICE restart', false).finally(
      () => (this.#reclaiming = null),
    );
    return this.#reclaiming.then(() => {
      this.#renewedAt = Date.now();
    });
  }

  async #reclaim(janus: InstanceType<JanusClass>, error: string, tell: boolean): Promise<void> {
    if (tell) this.emit('reconnecting', { error });
    try {
      await retry(() => this.#claim(janus), {
        attempts: RECLAIM_ATTEMPTS,
        delayMs: 500,
        maxDelayMs: 1500,
        stopIf: () => this.#closed,
        transient: isTransientGatewayError,
      });
      if (!this.#closed && tell) this.emit('reconnected', undefined);
    } catch (lost) {
      if (!this.#closed) this.emit('lost', { error: String(lost) });
    }
  }

  #claim(janus: InstanceType<JanusClass>): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const sockets: WebSocket[] = [];
      const timer = setTimeout(() => {
        done(new Error('Request timed out (claim)'));
        // a socket still connecting (the network gone) must not claim the session later, behind the next
        for (const ws of sockets) if (ws.readyState === WebSocket.CONNECTING) ws.close();
      }, CONNECT_TIMEOUT_MS);
      watchSocket = (ws) => {
        sockets.push(ws);
        ws.addEventListener('close', () => done(new Error('Lost connection to the server (is it down?)')));
      };
      console.info(`media: claiming session ${String(janus.getSessionId())}`);
      janus.reconnect({ success: () => done(), error: (e: unknown) => done(new Error(String(e))) });
      watchSocket = null;
    });
  }

  /** the ICE restart of each handle's peer connection */
  readonly #restarters = new Map<HandleKind, IceRestarter>();

  #restarter(kind: HandleKind): IceRestarter {
    let restarter = this.#restarters.get(kind);
    if (!restarter) {
      restarter = new IceRestarter({
        restart: () => this.#restartIce(kind),
        clock: realClock,
        onRestarting: () => this.#tell('iceRestarting', kind),
        onRecovered: () => this.#tell('iceRestarted', kind),
        onFailed: () => this.#tell('iceFailed', kind),
      });
      this.#restarters.set(kind, restarter);
    }
    return restarter;
  }

  #tell(event: 'iceRestarting' | 'iceRestarted' | 'iceFailed', handle: HandleKind): void {
    if (event !== 'iceRestarting') this.#pendingRestart.delete(handle);
    if (!this.#closed) this.emit(event, { handle });
  }

  /**
   * When each handle's last restart was sent and its offer or answer has not come back yet. While the
   * network is gone, a request waits in the websocket's TCP queue; a second restart stacked behind it
   * would reach Janus in the same burst, and the answers would no longer match the offers (another
   * failure, another restart). So a restart is sent again only after PENDING_RESTART_MS.
   */
  readonly #pendingRestart = new Map<HandleKind, number>();

  #answered(kind: HandleKind): void {
    this.#pendingRestart.delete(kind);
  }

  /**
   * One ICE restart (docs/protocol.md "ICE restart"). A publisher (camera or screen) offers again with
   * new ICE credentials (janus.js createOffer iceRestart) in a `configure`; the subscriber asks Janus for
   * a restarted offer (VideoRoom `configure` with `restart: true`), answered as any subscriber offer
   * (#onSubscriberMessage → `start`). One request, not the §8 retries: the restarter tries again itself.
   */
  async #restartIce(kind: HandleKind): Promise<void> {
    if (this.#closed) return;
    const handle = kind === 'publisher' ? this.#publisher : kind === 'screen' ? this.#screen : this.#subscriber;
    if (!handle) return;
    await this.#renewTransport();
    // back by itself meanwhile or within a moment of the network's return (the old path works again),
    // or over: nothing to restart
    if (this.#closed || (await this.#pathRecovers(handle))) return;
    const pending = this.#pendingRestart.get(kind);
    if (pending !== undefined && Date.now() - pending < PENDING_RESTART_MS) {
      console.info(`media: ICE restart of the ${kind} still under way`);
      return;
    }
    this.#pendingRestart.set(kind, Date.now());
    console.info(`media: ICE restart of the ${kind}`);
    if (kind === 'subscriber') {
      await this.#request(handle, { request: 'configure', restart: true });
      return;
    }
    const jsep = await new Promise<Jsep>((resolve, reject) =>
      handle.createOffer({ iceRestart: true, success: resolve, error: (e) => reject(e instanceof Error ? e : new Error(String(e))) }),
    );
    await this.#request(handle, { request: 'configure' }, jsep);
  }

  /**
   * Whether the handle's connection is up again (or over) within PATH_RECOVERY_GRACE_MS. A `failed`
   * connection does not come back by itself: no wait.
   */
  async #pathRecovers(handle: Handle): Promise<boolean> {
    const deadline = Date.now() + PATH_RECOVERY_GRACE_MS;
    for (;;) {
      const state = handle.webrtcStuff?.pc?.iceConnectionState;
      if (this.#closed || state === 'connected' || state === 'completed' || state === 'closed') return true;
      if (state === 'failed' || Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  #attach(kind: HandleKind, callbacks: JanusJS.PluginCallbacks): Promise<Handle> {
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
            iceState: (state) => this.#restarter(kind).onState(state),
            ...callbacks,
          }),
        ),
      { attempts: this.attempts, stopIf: () => this.#closed },
    );
  }

  /** One plugin request; a transport that dropped never answers, hence the timeout. */
  #request<T = Message>(handle: Handle, message: Record<string, unknown>, jsep?: Jsep): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Request timed out (${String(message.request)})`)), REQUEST_TIMEOUT_MS);
      handle.send({
        message: message as JanusJS.PluginMessage['message'],
        ...(jsep ? { jsep } : {}),
        success: (data?: unknown) => {
          clearTimeout(timer);
          const error = data ? pluginError(data) : null;
          if (error) reject(error);
          else resolve(data as T);
        },
        error: (e: string) => {
          clearTimeout(timer);
          reject(new Error(e));
        },
      });
    });
  }

  /**
   * A gateway step retried ("Constants"). A request answered with an error (a wrong pin) is final;
   * an offer or answer the browser failed to make (`anyError`) is made again.
   */
  #retried<T>(step: () => Promise<T>, anyError = false): Promise<T> {
    return retry(step, {
      attempts: this.attempts,
      stopIf: () => this.#closed,
      ...(anyError ? {} : { transient: isTransientGatewayError }),
    });
  }

  /**
   * Attaches the publisher handle ("Media session" step 1), and the subscriber handle beside it: the first
   * subscription (at join, or when the other side's publisher is announced: the agent's answer, for a
   * waiting guest) then starts with its `join` and not with one more round trip to attach.
   */
  async attachPublisher(): Promise<void> {
    // a standby session handed to its call has both already
    if (this.#publisher) return;
    const subscriber = this.#subscriberHandle();
    // its failure is the first subscription's to report (#negotiateSubscription attaches again)
    subscriber.catch(() => {
      if (this.#subscriberAttach === subscriber) this.#subscriberAttach = null;
    });
    this.#publisher = await this.#attach('publisher', {
      onmessage: (msg, jsep) => this.#onPublisherMessage(msg, jsep),
      onlocaltrack: () => undefined,
      onremotetrack: () => undefined,
    });
  }

  /**
   * The call's room, as the server granted it (docs/protocol.md "Media room"): the server creates each
   * room (its properties, a random pin and a secret only it holds), so this only records the
   * stage; no browser may create, edit, record or destroy a room.
   */
  useRoom(): void {
    this.emit('stage', { stage: 'createRoom', ok: true });
  }

  /** A publisher's join request (the pin in lowercase), retried (docs/protocol.md "Constants"). */
  #joinAsPublisher(handle: Handle, room: RoomOptions, display: string): Promise<Message> {
    return this.#retried(() =>
      this.#request(handle, { request: 'join', ptype: 'publisher', room: room.room, pin: room.pin.toLowerCase(), display }),
    );
  }

  /** Joins the room as a publisher (the pin in lowercase). */
  async join(room: RoomOptions, display: string): Promise<Publisher[]> {
    const publisher = this.#requirePublisher();
    this.#room = room;
    this.#display = display;
    try {
      const joined = new Promise<{ id: string; privateId?: number; publishers: Publisher[] }>(
        (resolve, reject) => {
          this.#joinWaiters.push(resolve);
          this.#joinFailures.push(reject);
        },
      );
      await this.#joinAsPublisher(publisher, room, display);
      const result = await joined;
      this.#myId = String(result.id);
      this.#privateId = result.privateId;
      this.emit('stage', { stage: 'joinRoom', ok: true });
      this.#subscribeTo(result.publishers);
      return result.publishers;
    } catch (error) {
      this.emit('stage', { stage: 'joinRoom', ok: false, error: String(error) });
      throw error;
    }
  }

  /** Publishes local media ("Media session" step 2). Resolves when Janus has configured the stream. */
  async publish(options: PublishOptions): Promise<void> {
    const publisher = this.#requirePublisher();
    this.localStream = options.stream;
    this.#watermark = options.watermark ?? null;
    const tracks: JanusJS.TrackOption[] = [];
    const audio = options.stream.getAudioTracks()[0];
    const video = options.stream.getVideoTracks()[0];
    if (options.audio && audio) tracks.push({ type: 'audio', capture: audio, recv: false });
    if (options.video && video) tracks.push({ type: 'video', capture: this.#sendable(video), recv: false });
    let jsep: Jsep;
    try {
      jsep = await this.#retried(
        () =>
          new Promise<Jsep>((resolve, reject) =>
            publisher.createOffer({ tracks, success: resolve, error: (e) => reject(e) }),
          ),
        true,
      );
      this.emit('stage', { stage: 'createOffer', ok: true });
    } catch (error) {
      this.emit('stage', { stage: 'createOffer', ok: false, error: String(error) });
      throw error;
    }
    // its first frames small enough for the start rate (media/startSmall.ts): set before any is encoded
    const pc = publisher.webrtcStuff?.pc;
    if (pc && options.video) startSmall(pc);
    const configured = new Promise<void>((resolve) => (this.#configured = resolve));
    // no record/filename: the server records the room (the gate refuses them)
    const body: Record<string, unknown> = { request: 'configure', audio: options.audio, video: options.video };
    await this.#retried(() => this.#request(publisher, body, jsep));
    await configured;
    this.emit('stage', { stage: 'localStream', ok: true });
  }

  /** Shares the screen as a second publisher named `{display}-screen`. */
  async startScreenShare(track: MediaStreamTrack): Promise<void> {
    if (!this.#room) throw new Error('not in a room');
    const room = this.#room;
    let joinedId: (id: string) => void = () => undefined;
    const joined = new Promise<string>((resolve) => (joinedId = resolve));
    let configured: () => void = () => undefined;
    const isConfigured = new Promise<void>((resolve) => (configured = resolve));
    const screen = await this.#attach('screen', {
      onmessage: (msg, jsep) => {
        if (msg.videoroom === 'joined') joinedId(String(msg.id));
        if (jsep) {
          this.#answered('screen');
          screen.handleRemoteJsep({ jsep });
        }
        if (msg.configured === 'ok') configured();
      },
    });
    this.#screen = screen;
    this.#screenTrack = track;
    track.addEventListener(
      'ended',
      () => void this.stopScreenShare().then(() => this.emit('screenEnded', undefined)),
    );
    await this.#joinAsPublisher(screen, room, `${this.#display}-screen`);
    this.#screenId = await joined;
    const jsep = await this.#retried(
      () =>
        new Promise<Jsep>((resolve, reject) =>
          screen.createOffer({
            tracks: [{ type: 'screen', capture: track, recv: false }],
            success: resolve,
            error: reject,
          }),
        ),
      true,
    );
    await this.#retried(() => this.#request(screen, { request: 'configure', audio: false, video: true }, jsep));
    await isConfigured;
  }

  async stopScreenShare(): Promise<void> {
    const screen = this.#screen;
    this.#screen = null;
    this.#screenId = null;
    this.#screenTrack?.stop();
    this.#screenTrack = null;
    this.#restarters.get('screen')?.stop();
    this.#restarters.delete('screen');
    if (!screen) return;
    await this.#request(screen, { request: 'leave' }).catch(() => undefined);
    screen.hangup();
    await new Promise<void>((resolve) => screen.detach({ success: resolve, error: () => resolve() }));
  }

  get sharingScreen(): boolean {
    return this.#screen !== null;
  }

  #requirePublisher(): Handle {
    if (!this.#publisher) throw new Error('Invalid plugin');
    return this.#publisher;
  }

  #onPublisherMessage(msg: Message, jsep?: Jsep): void {
    const error = pluginError(msg);
    if (msg.videoroom === 'joined') {
      this.#joinFailures = [];
      for (const resolve of this.#joinWaiters.splice(0)) {
        resolve({
          id: String(msg.id),
          privateId: msg.private_id as number | undefined,
          publishers: toPublishers(msg.publishers),
        });
      }
    } else if (msg.videoroom === 'event') {
      if (error && this.#joinFailures.length) {
        this.#joinWaiters = [];
        for (const reject of this.#joinFailures.splice(0)) reject(error);
        return;
      }
      if (msg.publishers) this.#subscribeTo(toPublishers(msg.publishers));
      const gone: unknown = msg.unpublished ?? msg.leaving;
      if ((typeof gone === 'string' || typeof gone === 'number') && gone !== 'ok')
        this.#onFeedGone(String(gone));
    } else if (msg.videoroom === 'destroyed') {
      this.emit('destroyed', undefined);
    }
    if (msg.configured === 'ok' && this.#configured) {
      this.#configured();
      this.#configured = null;
    }
    if (jsep) {
      this.#answered('publisher');
      this.#publisher?.handleRemoteJsep({ jsep });
    }
  }

  #isOwn(publisher: Publisher): boolean {
    return (
      String(publisher.id) === this.#myId ||
      String(publisher.id) === this.#screenId ||
      // our name's camera from our previous page (the website widget's page change, docs/widget.md),
      // still in the room until Janus lets its session go: not a peer
      publisher.display === this.#display ||
      publisher.display === `${this.#display}-screen`
    );
  }

  /** Subscribes to new publishers (skipping our own camera and screen). Queued: one negotiation at a time. */
  #subscribeTo(publishers: Publisher[]): void {
    const fresh = publishers.filter((p) => !this.#isOwn(p) && !this.#feeds.has(String(p.id)));
    if (!fresh.length) return;
    for (const p of fresh) this.#feeds.set(String(p.id), { display: p.display, stream: null });
    for (const p of fresh) this.emit('publisherJoined', { feedId: String(p.id), display: p.display });
    // diagnostics (the guest's console buffer goes with its reports): the subscriptions' order of events
    console.info(`media: subscribing to ${fresh.map((p) => String(p.id)).join(', ')}`);
    const streams = fresh.map((p) => ({ feed: p.id }));
    this.#subscribeQueue = this.#subscribeQueue
      .then(() => this.#negotiateSubscription(streams))
      .catch((error: unknown) =>
        this.emit('error', error instanceof Error ? error : new Error(String(error))),
      );
  }

  async #negotiateSubscription(streams: { feed: string }[]): Promise<void> {
    if (this.#closed || !this.#room) return;
    let answered: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (answered = resolve));
    this.#afterAnswer = answered;
    if (!this.#subscriberJoined) {
      // attached beside the publisher (attachPublisher): usually there already, one round trip saved
      const subscriber = await this.#subscriberHandle();
      if (this.#closed) return;
      this.#subscriberJoined = true;
      const room = this.#room;
      await this.#retried(() =>
        this.#request(subscriber, {
          request: 'join',
          ptype: 'subscriber',
          room: room.room,
          pin: room.pin.toLowerCase(),
          streams,
          ...(this.#privateId !== undefined ? { private_id: this.#privateId } : {}),
        }),
      );
    } else {
      const subscriber = this.#subscriber!;
      await this.#retried(() => this.#request(subscriber, { request: 'subscribe', streams }));
    }
    await done;
  }

  #afterAnswer: (() => void) | null = null;
  /** the subscriber handle's attach, started beside the publisher's (attachPublisher) */
  #subscriberAttach: Promise<Handle> | null = null;
  /** the subscriber handle joined the room (its first subscription); later ones are `subscribe` */
  #subscriberJoined = false;

  /** The subscriber handle: the one attached beside the publisher, or one attached now. */
  #subscriberHandle(): Promise<Handle> {
    this.#subscriberAttach ??= this.#attach('subscriber', {
      onmessage: (msg, jsep) => this.#onSubscriberMessage(msg, jsep),
      onremotetrack: (track, mid, on, metadata) => this.#onRemoteTrack(track, mid, on, metadata?.reason),
    }).then((handle) => (this.#subscriber = handle));
    return this.#subscriberAttach;
  }

  #onSubscriberMessage(msg: Message, jsep?: Jsep): void {
    const streams = msg.streams as
      { mid: string; feed_id?: string | number; feed_display?: string }[] | undefined;
    if (streams) {
      for (const s of streams) {
        if (s.feed_id !== undefined) {
          this.#midToFeed.set(String(s.mid), String(s.feed_id));
          const feed = this.#feeds.get(String(s.feed_id));
          if (feed && s.feed_display) feed.display = s.feed_display;
        }
      }
    }
    if (streams || jsep) {
      const mids = (streams ?? []).map((st) => `${st.mid}=${st.feed_id ?? '-'}`).join(' ');
      console.info(`media: subscriber ${String(msg.videoroom)} [${mids}]${jsep ? ` ${jsep.type}` : ''}`);
    }
    const subscriber = this.#subscriber;
    if (!jsep || !subscriber) return;
    this.#answered('subscriber');
    // The new feeds' tracks arrive while janus.js takes Janus's offer (ontrack): they are told only once
    // our answer is on its way, so that what the app renders for them (the call screen) runs while DTLS
    // comes up, not between the offer and the answer (≈ 50–100 ms at each side: --timeline of
    // bench/call-setup.ts)
    this.#heldFeeds ??= [];
    const release = () => {
      const held = this.#heldFeeds ?? [];
      this.#heldFeeds = null;
      for (const tell of held) tell();
    };
    const finished = () => {
      this.#afterAnswer?.();
      this.#afterAnswer = null;
    };
    this.#retried(
      () =>
        new Promise<Jsep>((resolve, reject) =>
          subscriber.createAnswer({
            jsep,
            // audio and video are accepted as recvonly; a data track keeps the negotiation shape of the demos
            tracks: [{ type: 'data', capture: false }],
            success: resolve,
            error: reject,
          }),
        ),
      true,
    ).then(
      (answer) => {
        this.emit('stage', { stage: 'createAnswer', ok: true });
        console.info('media: subscriber answer sent');
        this.#adoptReusedTracks();
        subscriber.send({ message: { request: 'start', room: this.#room?.room }, jsep: answer, success: finished, error: finished });
        release();
      },
      (error: unknown) => {
        release();
        this.emit('stage', { stage: 'createAnswer', ok: false, error: String(error) });
        finished();
      },
    );
  }

  /** A departed feed's m-lines given to a new feed in one negotiation: its tracks fire no event (reusedTracks.ts). */
  #adoptReusedTracks(): void {
    const pc = this.#subscriber?.webrtcStuff?.pc;
    if (!pc) return;
    const feedHas = (mid: string, track: MediaStreamTrack) => {
      const feed = this.#feeds.get(this.#midToFeed.get(mid) ?? '');
      return feed ? !!feed.stream?.getTracks().includes(track) : null;
    };
    for (const { mid, track } of reusedTracks(pc.getTransceivers(), feedHas)) this.#onRemoteTrack(track, mid, true, 'reused');
  }

  /** what new remote tracks would tell while our answer to Janus's offer is being made (null: none made) */
  #heldFeeds: (() => void)[] | null = null;

  #onRemoteTrack(track: MediaStreamTrack, mid: string, on: boolean, reason?: string): void {
    if (this.#heldFeeds) {
      this.#heldFeeds.push(() => this.#onRemoteTrack(track, mid, on, reason));
      return;
    }
    const feedId = this.#midToFeed.get(String(mid));
    console.info(`media: remote ${track.kind} mid ${mid} ${on ? 'on' : 'off'}${reason ? ` (${reason})` : ''} feed ${feedId ?? '-'}`);
    if (!feedId) return;
    const feed = this.#feeds.get(feedId);
    if (!feed) return;
    if (!on) {
      // 'mute' is a pause in the stream (e.g. the other side's camera off), not a removal
      if (reason === 'mute' || !feed.stream) return;
      for (const t of feed.stream.getTracks()) if (t.kind === track.kind) feed.stream.removeTrack(t);
      if (feed.stream.getTracks().length === 0) {
        feed.stream = null;
        this.emit('remoteFeedRemoved', { feedId, display: feed.display });
      }
      return;
    }
    if (track.readyState === 'ended') return;
    const stream = feed.stream ?? new MediaStream();
    for (const t of stream.getTracks()) if (t.kind === track.kind && t.id !== track.id) stream.removeTrack(t);
    if (!stream.getTracks().includes(track)) stream.addTrack(track);
    const isNew = feed.stream === null;
    feed.stream = stream;
    if (isNew) this.emit('stage', { stage: 'remoteStream', ok: true });
    this.emit('remoteFeed', { feedId, display: feed.display, stream });
  }

  #onFeedGone(feedId: string): void {
    const feed = this.#feeds.get(feedId);
    if (!feed) return;
    console.info(`media: publisher ${feedId} left`);
    this.#feeds.delete(feedId);
    for (const [mid, id] of this.#midToFeed) if (id === feedId) this.#midToFeed.delete(mid);
    if (feed.stream) this.emit('remoteFeedRemoved', { feedId, display: feed.display });
    this.emit('publisherLeft', { feedId, display: feed.display });
  }

  /** Remote feeds currently received. */
  get remoteFeeds(): RemoteFeed[] {
    return [...this.#feeds.entries()]
      .filter(
        (entry): entry is [string, { display: string; stream: MediaStream }] => entry[1].stream !== null,
      )
      .map(([feedId, feed]) => ({ feedId, display: feed.display, stream: feed.stream }));
  }

  /** The peer connections, for statistics (own publisher, subscriber, screen). */
  peerConnections(): {
    publisher?: RTCPeerConnection;
    subscriber?: RTCPeerConnection;
    screen?: RTCPeerConnection;
  } {
    return {
      publisher: this.#publisher?.webrtcStuff?.pc ?? undefined,
      subscriber: this.#subscriber?.webrtcStuff?.pc ?? undefined,
      screen: this.#screen?.webrtcStuff?.pc ?? undefined,
    };
  }

  /**
   * The video track to send for a camera track: the camera itself, or its watermarked copy when the
   * company's streamWatermark is on (the previous copy is stopped: one camera is sent at a time).
   */
  #sendable(camera: MediaStreamTrack): MediaStreamTrack {
    if (!this.#watermark || !canWatermark()) return camera;
    this.#marked?.stop();
    this.#marked = watermarkTrack(camera, this.#watermark);
    return this.#marked.track;
  }

  /** senders whose track we took away to mute, by kind */
  #mutedSenders = new Map<'audio' | 'video', { sender: RTCRtpSender; track: MediaStreamTrack }>();

  /**
   * Mutes or unmutes our own published audio or video. A muted track is disabled and taken off its
   * sender (replaceTrack(null)), so nothing at all is sent (a disabled track alone still sends silence
   * or black frames); unmuting puts it back. No renegotiation either way.
   */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const pc = this.#publisher?.webrtcStuff?.pc;
    for (const track of this.localStream?.getTracks() ?? []) if (track.kind === kind) track.enabled = !muted;
    if (!pc) return;
    if (muted) {
      if (this.#mutedSenders.has(kind)) return;
      const sender = pc.getSenders().find((s) => s.track?.kind === kind);
      if (!sender?.track) return;
      this.#mutedSenders.set(kind, { sender, track: sender.track });
      await sender.replaceTrack(null);
    } else {
      const entry = this.#mutedSenders.get(kind);
      if (!entry) return;
      this.#mutedSenders.delete(kind);
      entry.track.enabled = true;
      await entry.sender.replaceTrack(entry.track);
    }
  }

  /**
   * Swaps our published camera and/or microphone for the tracks of `stream` (a device change) without
   * renegotiating: each sender gets the new track (replaceTrack); a muted kind stays muted. The old
   * tracks of the swapped kinds are stopped.
   */
  async replaceTracks(stream: MediaStream): Promise<void> {
    const pc = this.#publisher?.webrtcStuff?.pc;
    const previous = this.localStream;
    for (const kind of ['audio', 'video'] as const) {
      const next = kind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
      if (!next) continue;
      const muted = this.#mutedSenders.get(kind);
      const sent = kind === 'video' ? this.#sendable(next) : next;
      if (muted) {
        next.enabled = false;
        muted.track = sent;
      } else if (pc && this.#publisher) {
        const publisher = this.#publisher;
        const sender = pc.getSenders().find((s) => s.track?.kind === kind);
        const mid = pc.getTransceivers().find((t) => t.sender === sender)?.mid ?? undefined;
        // janus.js's own replaceTracks keeps its bookkeeping of the local stream right
        await new Promise<void>((resolve, reject) =>
          publisher.replaceTracks({
            tracks: [{ type: kind, capture: sent, recv: false, ...(mid ? { mid } : {}) }],
            success: () => resolve(),
            error: (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
          }),
        );
      }
      for (const old of previous?.getTracks() ?? []) if (old.kind === kind && old !== next) old.stop();
    }
    const kept = (previous?.getTracks() ?? []).filter(
      (t) => t.readyState === 'live' && !stream.getTracks().some((n) => n.kind === t.kind),
    );
    this.localStream = new MediaStream([...stream.getTracks(), ...kept]);
  }

  /**
   * Changes camera and/or microphone during the call, or flips between the front and the back camera
   * (deviceConfigChanged, isBackCam): the one implementation the guest and the agent share.
   * The new tracks replace the published ones on the same connection (replaceTracks).
   *
   * After a camera switch the encoder is watched (cameraGuard.ts, shared with the p2p transport): a camera
   * whose frames cannot be sent is replaced by the previous one and UnsendableCameraError is thrown.
   * Resolves false when there was nothing to change.
   */
  async changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean> {
    const facing = choice.backCam === undefined ? undefined : choice.backCam ? 'environment' : 'user';
    const wantsVideo = options.video && (choice.videoDeviceId !== undefined || facing !== undefined);
    const wantsAudio = choice.audioDeviceId !== undefined;
    if (!wantsVideo && !wantsAudio) return false;
    const constraints = options.videoConstraints ?? DEFAULT_VIDEO_CONSTRAINTS;
    const previousCamera = this.localStream?.getVideoTracks()[0]?.getSettings().deviceId;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: wantsAudio ? { deviceId: { exact: choice.audioDeviceId } } : false,
      video: wantsVideo
        ? {
            ...constraints,
            ...(choice.videoDeviceId ? { deviceId: { exact: choice.videoDeviceId } } : {}),
            ...(facing ? { facingMode: { ideal: facing } } : {}),
          }
        : false,
    });
    await this.replaceTracks(stream);
    if (!wantsVideo || this.#mutedSenders.has('video')) return true;
    await keepSendableCamera({
      senders: () => this.#publisher?.webrtcStuff?.pc?.getSenders() ?? [],
      previousCamera,
      restore: async (deviceId) =>
        this.replaceTracks(
          await navigator.mediaDevices.getUserMedia({ audio: false, video: { ...constraints, deviceId: { exact: deviceId } } }),
        ),
      ...(options.probeMs !== undefined ? { probeMs: options.probeMs } : {}),
      stopped: () => this.#closed,
    });
    return true;
  }

  /**
   * Leaves the room and ends every handle and the session ("Media session": hang-up stops tracks, clears
   * timers and closes the peer connection; then detach; then the session is destroyed).
   */
  async close(_options: { destroyRoom?: boolean } = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const restarter of this.#restarters.values()) restarter.stop();
    await this.stopScreenShare().catch(() => undefined);
    const publisher = this.#publisher;
    // always leave: the room is destroyed by the server when the call ends (the others see us leave)
    if (publisher && this.#room) await this.#request(publisher, { request: 'leave' }).catch(() => undefined);
    for (const track of this.localStream?.getTracks() ?? []) track.stop();
    this.#marked?.stop();
    this.#marked = null;
    const janus = this.#janus;
    this.#janus = null;
    if (janus) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 3000);
        janus.destroy({
          cleanupHandles: true,
          success: () => {
            clearTimeout(timer);
            resolve();
          },
          error: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    }
  }
}

function toPublishers(value: unknown): Publisher[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((p): p is { id: string | number; display?: string } => !!p && typeof p === 'object' && 'id' in p)
    .map((p) => ({ ...(p as Publisher), id: String(p.id), display: p.display ?? '' }));
}
