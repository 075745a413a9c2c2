/**
 * Fakes of the call engines' ports (src/ports/), in the style of apps/server/test/helpers/fakes.ts:
 * one in-process XMPP server (rooms, presence, control messages, chat) and one in-process media server
 * (rooms of publishers: feeds appear and disappear, stages, screen shares), so that a GuestCall and one or
 * more AgentDesks talk to each other as they do through ejabberd and Janus. Plus fake devices, clock, page
 * and APIs that record what the engines asked for.
 *
 * Deliveries are asynchronous (a microtask), as on the wire: tests `await settle()` before they look.
 */
import { Emitter } from '../../src/emitter.ts';
import { decodePresenceStatus, type LobbyPresenceElement } from '../../src/presence.ts';
import type { CallPorts } from '../../src/ports/callPorts.ts';
import type { ClockPort } from '../../src/ports/clock.ts';
import type { DevicesPort, LocalMediaRequest } from '../../src/ports/devices.ts';
import type { EnvironmentPort } from '../../src/ports/environment.ts';
import type { MediaEvents, MediaSessionOptions, MediaTransport, PublishOptions, RoomOptions, StandbyRequest, SuppressNoise } from '../../src/ports/media.ts';
import type { SignallingPort } from '../../src/ports/signalling.ts';
import type { OutgoingChat, XmppEvents, XmppSessionOptions } from '../../src/xmpp/session.ts';
import type { CallControl } from '../../src/xmpp/stanzas.ts';
import type { CallRoutingInfo as CallRouting, GuestRegistration, IncomingTransfer, MediaGrant, OpenCall, ReportStatus, TransferAccepted } from '@lobby/contracts';
import type { GuestApi, TimestampFlag } from '../../src/api/guestApi.ts';
import type { ConsoleApi, TransferEvents } from '../../src/api/consoleApi.ts';
import type { JinglePort } from '../../src/xmpp/jingle.ts';
import { P2PTransport } from '../../src/media/p2pTransport.ts';
import type { FakeJingleNetwork } from './fakeJingle.ts';

/** Lets every queued delivery (and what it sets off) run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** A promise and its resolve, for a step a test holds back. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

// ---------------------------------------------------------------- media streams

let nextId = 1;

/** A MediaStreamTrack enough for the engines: stop(), readyState and the browser's 'ended' event. */
export class FakeTrack {
  readonly id = `track-${nextId++}`;
  readyState: 'live' | 'ended' = 'live';
  enabled = true;
  #ended = new Set<() => void>();
  readonly kind: 'audio' | 'video';
  /** the device it comes from */
  readonly deviceId: string;
  /** its frames are never encoded (a depth camera's): a sender's stats show no new frames for it */
  unsendable = false;
  constructor(kind: 'audio' | 'video', deviceId = kind === 'video' ? 'camera-0' : 'microphone-0') {
    this.kind = kind;
    this.deviceId = deviceId;
  }
  getSettings(): { deviceId: string } {
    return { deviceId: this.deviceId };
  }
  stop(): void {
    this.readyState = 'ended';
  }
  clone(): FakeTrack {
    const copy = new FakeTrack(this.kind, this.deviceId);
    copy.unsendable = this.unsendable;
    return copy;
  }
  addEventListener(type: string, listener: () => void): void {
    if (type === 'ended') this.#ended.add(listener);
  }
  removeEventListener(type: string, listener: () => void): void {
    if (type === 'ended') this.#ended.delete(listener);
  }
  /** The browser ends the track by itself (e.g. its "Stop sharing" button). */
  endByBrowser(): void {
    this.readyState = 'ended';
    for (const listener of [...this.#ended]) listener();
  }
}

export class FakeStream {
  readonly id = `stream-${nextId++}`;
  readonly tracks: FakeTrack[];
  constructor(tracks: FakeTrack[]) {
    this.tracks = tracks;
  }
  getTracks(): FakeTrack[] {
    return this.tracks;
  }
  getVideoTracks(): FakeTrack[] {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  getAudioTracks(): FakeTrack[] {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  get stopped(): boolean {
    return this.tracks.every((t) => t.readyState === 'ended');
  }
  /** new tracks of the same devices (a browser's clone: stopping one leaves the other live) */
  clone(): FakeStream {
    return new FakeStream(this.tracks.map((t) => t.clone()));
  }
}

export function fakeStream(video: boolean): MediaStream {
  return new FakeStream([new FakeTrack('audio'), ...(video ? [new FakeTrack('video')] : [])]) as unknown as MediaStream;
}

/** The stream getUserMedia gives for `constraints` (the exact deviceIds asked for); `unsendable` cameras flagged. */
function fakeUserMedia(constraints: MediaStreamConstraints, unsendable: ReadonlySet<string>): MediaStream {
  const exact = (c: boolean | MediaTrackConstraints | undefined) =>
    typeof c === 'object' ? ((c.deviceId as { exact?: string } | undefined)?.exact ?? undefined) : undefined;
  const tracks: FakeTrack[] = [];
  if (constraints.audio) tracks.push(new FakeTrack('audio', exact(constraints.audio)));
  if (constraints.video) {
    const camera = new FakeTrack('video', exact(constraints.video));
    camera.unsendable = unsendable.has(camera.deviceId);
    tracks.push(camera);
  }
  return new FakeStream(tracks) as unknown as MediaStream;
}

export const asFake = (stream: MediaStream | null): FakeStream | null => stream as unknown as FakeStream | null;

// ---------------------------------------------------------------- signalling (XMPP)

interface Occupant {
  session: FakeSignalling;
  status: string;
  lobby: LobbyPresenceElement;
}

/** One XMPP server with its MUC rooms; every presence and control message sent is logged. */
export class FakeXmppServer {
  readonly rooms = new Map<string, Map<string, Occupant>>();
  readonly presenceLog: Array<{ room: string; nick: string; status: string; lobby: LobbyPresenceElement }> = [];
  readonly controlLog: Array<{ room: string; from: string; control: CallControl }> = [];
  readonly sessions: FakeSignalling[] = [];
  /** p2p worlds: the sessions' Jingle ports live on this network */
  jingle: FakeJingleNetwork | null = null;

  /** The signalling port factory: each engine's session joins this server. */
  readonly factory = (options: XmppSessionOptions): SignallingPort => {
    const session = new FakeSignalling(this, options);
    this.sessions.push(session);
    return session;
  };

  /** A room member's latest status text ('' for none; null when not in the room). */
  statusOf(room: string, nick: string): string | null {
    return this.rooms.get(room)?.get(nick)?.status ?? null;
  }

  join(session: FakeSignalling, room: string, nick: string, status: string, lobby: LobbyPresenceElement): void {
    const occupants = this.rooms.get(room) ?? new Map<string, Occupant>();
    this.rooms.set(room, occupants);
    // the newcomer hears who is there, then everybody hears the newcomer (ourselves with status 110)
    for (const [otherNick, other] of occupants) this.#presenceTo(session, room, otherNick, other, true);
    occupants.set(nick, { session, status, lobby });
    this.#broadcastPresence(room, nick, true);
  }

  setPresence(room: string, nick: string, status: string, lobby: LobbyPresenceElement): void {
    const occupant = this.rooms.get(room)?.get(nick);
    if (!occupant) return;
    occupant.status = status;
    occupant.lobby = lobby;
    this.#broadcastPresence(room, nick, true);
  }

  leave(room: string, nick: string): void {
    this.#broadcastPresence(room, nick, false);
    this.rooms.get(room)?.delete(nick);
  }

  /**
   * The XMPP server restarts: each room tells its occupants everybody left (ejabberd's
   * shutdown presence), then every stream drops and the rooms are empty. `back()` gives the sessions new
   * streams, in no room.
   */
  async restart(): Promise<void> {
    for (const [room, occupants] of this.rooms) for (const nick of [...occupants.keys()]) this.leave(room, nick);
    await settle();
    this.rooms.clear();
    for (const session of this.sessions) session.drop();
  }

  /**
   * The ejabberd node holding `room` dies (docs/operations.md "Scaling"): the room is gone with its
   * occupants, and nobody is told (no presence); the next stanza to it finds it again, empty.
   */
  lose(room: string): void {
    this.rooms.delete(room);
  }

  /** Self-ping (XEP-0410): whether `session` is an occupant of `room` as `nick`; `unanswered` rooms never answer. */
  readonly unanswered = new Set<string>();
  pingSelf(session: FakeSignalling, room: string, nick: string): Promise<boolean> {
    if (this.unanswered.has(room)) return Promise.resolve(false);
    this.pings.push(room);
    return Promise.resolve(this.rooms.get(room)?.get(nick)?.session === session);
  }
  /** every self-ping answered, by room */
  readonly pings: string[] = [];

  /** One session's stream drops (its network): its rooms see it leave. */
  cut(session: FakeSignalling): void {
    for (const [room, nick] of session.joined) this.leave(room, nick);
    session.drop();
  }

  /** The dropped sessions reconnect (XmppSession's 'reconnected'). */
  back(sessions: FakeSignalling[] = this.sessions): void {
    for (const session of sessions) session.reconnect();
  }

  control(room: string, nick: string, control: CallControl): void {
    const from = `${room}/${nick}`;
    this.controlLog.push({ room, from, control });
    for (const occupant of this.rooms.get(room)?.values() ?? [])
      deliver(() => occupant.session.deliver('control', { ...control, room, from }));
  }

  /** every chat message sent to a room, in order */
  readonly chatLog: { room: string; nick: string; id: string }[] = [];
  chat(room: string, nick: string, chat: OutgoingChat, id: string): void {
    this.chatLog.push({ room, nick, id });
    for (const occupant of this.rooms.get(room)?.values() ?? [])
      deliver(() =>
        occupant.session.deliver('chat', {
          room,
          from: `${room}/${nick}`,
          nick,
          body: chat.body,
          id,
          at: Date.now(),
          file: chat.file ?? null,
          delayed: false,
        }),
      );
  }

  #broadcastPresence(room: string, nick: string, available: boolean): void {
    const occupant = this.rooms.get(room)?.get(nick);
    if (!occupant) return;
    if (available) this.presenceLog.push({ room, nick, status: occupant.status, lobby: occupant.lobby });
    for (const other of this.rooms.get(room)?.values() ?? []) this.#presenceTo(other.session, room, nick, occupant, available);
  }

  #presenceTo(to: FakeSignalling, room: string, nick: string, occupant: Occupant, available: boolean): void {
    const { status, lobby, session } = occupant;
    deliver(() =>
      to.deliver('roomPresence', {
        room,
        nick,
        jid: `${session.jid}/${session.resource}`,
        available,
        statusText: status,
        info: decodePresenceStatus(status),
        lobby: { ...lobby },
        self: session === to,
        affiliation: null,
        role: null,
      }),
    );
  }
}

function deliver(run: () => void): void {
  queueMicrotask(run);
}

export class FakeSignalling extends Emitter<XmppEvents> implements SignallingPort {
  connected = false;
  readonly iceServers: RTCIceServer[] = [{ urls: 'turn:fake.test' }];
  readonly jid: string;
  readonly resource: string;
  /** the rooms this session joined, room → nick */
  readonly joined = new Map<string, string>();

  readonly server: FakeXmppServer;
  readonly options: XmppSessionOptions;

  constructor(server: FakeXmppServer, options: XmppSessionOptions) {
    super();
    this.server = server;
    this.options = options;
    this.jid = options.jid;
    this.resource = options.resource ?? 'web';
    this.jingle = server.jingle?.port(`${this.jid}/${this.resource}`) ?? null;
  }

  readonly jingle: JinglePort | null;

  deliver<K extends keyof XmppEvents>(event: K, payload: XmppEvents[K]): void {
    if (this.connected) this.emit(event, payload);
  }

  connect(): Promise<void> {
    this.connected = true;
    return Promise.resolve();
  }
  /** what each room join waits for before ejabberd answers it (a test holds joins to count them in flight) */
  joinGate: Promise<void> | null = null;
  /** joins sent and not yet answered, now and at most */
  joinsInFlight = { now: 0, max: 0 };

  async joinRoom(room: string, nick: string, status: string, lobby: LobbyPresenceElement): Promise<void> {
    if (!this.connected) throw new Error('not connected');
    this.joinsInFlight.now++;
    this.joinsInFlight.max = Math.max(this.joinsInFlight.max, this.joinsInFlight.now);
    try {
      await this.joinGate;
    } finally {
      this.joinsInFlight.now--;
    }
    this.joined.set(room, nick);
    this.server.join(this, room, nick, status, lobby);
  }
  setRoomPresence(room: string, nick: string, status: string, lobby: LobbyPresenceElement): void {
    // a stream that dropped carries nothing (and a new one is in no room until it joins)
    if (this.connected && this.joined.has(room)) this.server.setPresence(room, nick, status, lobby);
  }
  leaveRoom(room: string, nick: string): Promise<void> {
    this.joined.delete(room);
    this.server.leave(room, nick);
    return Promise.resolve();
  }
  pingSelf(room: string, nick: string): Promise<boolean> {
    if (!this.connected) return Promise.reject(new Error('not connected'));
    return this.server.pingSelf(this, room, nick);
  }
  sendControl(room: string, control: CallControl): void {
    const nick = this.joined.get(room);
    if (nick) this.server.control(room, nick, control);
  }
  sendChat(room: string, message: OutgoingChat | string): string {
    const chat: OutgoingChat = typeof message === 'string' ? { body: message } : message;
    const id = chat.id ?? `chat-${nextId++}`;
    const nick = this.joined.get(room);
    if (nick) this.server.chat(room, nick, chat, id);
    return id;
  }
  /** The stream dropped (auto reconnect on): in no room any more, 'disconnected' then 'reconnecting'. */
  drop(): void {
    if (!this.connected) return;
    this.connected = false;
    this.joined.clear();
    this.emit('disconnected', undefined);
    this.emit('reconnecting', { attempt: 1 });
  }

  /** A new stream after a drop, with the session start done again. */
  reconnect(): void {
    if (this.connected || this.closed) return;
    this.connected = true;
    this.emit('reconnected', undefined);
  }

  /** disconnect() was asked: never reconnected */
  closed = false;

  disconnect(): Promise<void> {
    this.closed = true;
    for (const [room, nick] of this.joined) this.server.leave(room, nick);
    this.joined.clear();
    this.connected = false;
    this.emit('disconnected', undefined);
    return Promise.resolve();
  }
}

// ---------------------------------------------------------------- media transport (Janus)

interface Feed {
  feedId: string;
  display: string;
  stream: MediaStream;
  owner: FakeMedia;
}

/** One media server: rooms of published feeds; every transport opened is kept for assertions. */
export class FakeMediaServer {
  readonly rooms = new Map<string, Map<string, Feed>>();
  readonly transports: FakeMedia[] = [];
  /** what `connect()` of the next transports waits for (a test holds a call in its start) */
  connectGate: Promise<void> | null = null;
  /** the media server's health: connect attempts that fail before one works (connectRetry each) */
  connectRetries = 0;
  /** connecting fails for good with this error (Janus down after every attempt) */
  connectError: Error | null = null;

  readonly factory = (options: MediaSessionOptions): MediaTransport => {
    const media = new FakeMedia(this, options);
    this.transports.push(media);
    return media;
  };

  /** The displays publishing in a room now. */
  publishers(room: string): string[] {
    return [...(this.rooms.get(room)?.values() ?? [])].map((f) => f.display);
  }

  /** Transports that have a given display and are in the room now. */
  members(room: string): FakeMedia[] {
    return this.transports.filter((t) => t.room === room && !t.closed);
  }

  publish(media: FakeMedia, display: string, stream: MediaStream): string {
    const room = media.room!;
    const feeds = this.rooms.get(room) ?? new Map<string, Feed>();
    this.rooms.set(room, feeds);
    const feed: Feed = { feedId: `feed-${nextId++}`, display, stream, owner: media };
    feeds.set(feed.feedId, feed);
    for (const other of this.members(room)) if (other !== media) other.receive(feed);
    return feed.feedId;
  }

  unpublish(room: string, feedId: string): void {
    const feed = this.rooms.get(room)?.get(feedId);
    if (!feed) return;
    this.rooms.get(room)!.delete(feedId);
    for (const other of this.members(room)) if (other !== feed.owner) other.gone(feed);
  }

  /** A participant's media vanishes from the room (its tab closed): the others see its feeds leave. */
  drop(room: string, display: string): void {
    for (const feed of [...(this.rooms.get(room)?.values() ?? [])])
      if (feed.display === display || feed.display === `${display}-screen`) this.unpublish(room, feed.feedId);
    for (const media of this.members(room)) if (media.display === display) media.closed = true;
  }

  /** The transport to the media server dropped: the room's sessions are being reclaimed. */
  transportDropped(room: string, error = 'websocket closed'): void {
    for (const media of this.members(room)) media.tell('reconnecting', { error });
  }

  /** Claims `from`…`to` of the room's dropped sessions failed (Janus unreachable), each told as the real transport does. */
  claimsFailed(room: string, from: number, to: number, error = 'Lost connection to the server (is it down?)'): void {
    for (let attempt = from; attempt <= to; attempt++) for (const media of this.members(room)) media.tell('claimFailed', { attempt, error });
  }

  /** The room's sessions were claimed on a new connection. */
  reclaimed(room: string): void {
    for (const media of this.members(room)) media.tell('reconnected', undefined);
  }

  /** The media server lost the room's sessions (restarted or crashed): its room and feeds are gone too. */
  sessionsLost(room: string, error = 'session not found'): void {
    const members = this.members(room);
    this.rooms.delete(room);
    for (const media of members) {
      // its session is gone: it is in no room any more (nothing more reaches it)
      media.room = null;
      media.tell('lost', { error });
    }
  }

  destroy(room: string, by: FakeMedia): void {
    for (const other of this.members(room)) if (other !== by) other.destroyed();
    this.rooms.delete(room);
  }
}

export class FakeMedia extends Emitter<MediaEvents> implements MediaTransport {
  room: string | null = null;
  display: string | null = null;
  closed = false;
  closedWith: { destroyRoom?: boolean } | null = null;
  /** how often the session's next claim was asked for at once (claimNow) */
  claimsNow = 0;
  published: PublishOptions | null = null;
  muted = { audio: false, video: false };
  localStream: MediaStream | null = null;
  #feedId: string | null = null;
  #screenFeedId: string | null = null;
  #screenTrack: FakeTrack | null = null;

  readonly server: FakeMediaServer;
  readonly options: MediaSessionOptions;

  claimNow(): void {
    this.claimsNow++;
  }

  /** the noise-suppression switch as the call room last set it during the call */
  noiseSuppression: boolean | null = null;
  setNoiseSuppression(on: boolean): Promise<void> {
    this.noiseSuppression = on;
    return Promise.resolve();
  }

  constructor(server: FakeMediaServer, options: MediaSessionOptions) {
    super();
    this.server = server;
    this.options = options;
  }

  /** The media server's health as the real transport tells it (FakeMediaServer.transportDropped …), or a stage. */
  tell<K extends 'reconnecting' | 'reconnected' | 'claimFailed' | 'lost' | 'iceRestarting' | 'iceRestarted' | 'iceFailed' | 'stage'>(
    event: K,
    payload: MediaEvents[K],
  ): void {
    this.emit(event, payload);
  }

  /**
   * what this transport's subscriptions wait for, once their publisher is announced, before its media
   * arrives (a test holds it: a busy browser negotiating a subscription to a new publisher for seconds)
   */
  subscriptionGate: Promise<void> | null = null;
  /** whether the others' audio reaches us (a test stops it: their network is cut) */
  receiving = true;
  /** the share of the others' packets lost on the way to us, % (a test makes our line lossy) */
  lossPercent = 0;
  /** what our line's queue adds to the round trip, ms (a congested line's loss comes with it) */
  queueMs = 0;
  /** the share of what we send that the far end reports lost, % (its receiver report every poll) */
  sentLossPercent = 0;
  #reports = 0;
  #audioPackets = 0;
  #audioLost = 0;
  /** the subscriber's statistics as getStats() gives them: 50 audio packets more per poll while receiving */
  readonly #subscriberPc = {
    localDescription: { sdp: 'v=0 subscriber-local' },
    remoteDescription: { sdp: 'v=0 subscriber-remote' },
    getStats: () => {
      if (this.receiving) this.#audioPackets += 50;
      if (this.receiving) this.#audioLost += Math.round((50 * this.lossPercent) / (100 - this.lossPercent));
      return Promise.resolve(
        new Map<string, Record<string, unknown>>([
          ['in-a', { id: 'in-a', type: 'inbound-rtp', kind: 'audio', packetsReceived: this.#audioPackets, packetsLost: this.#audioLost, jitter: 0.004 }],
          ['t', { id: 't', type: 'transport', selectedCandidatePairId: 'p' }],
          ['p', { id: 'p', type: 'candidate-pair', currentRoundTripTime: (20 + this.queueMs) / 1000 }],
          ['ri-a', { id: 'ri-a', type: 'remote-inbound-rtp', kind: 'audio', reportsReceived: ++this.#reports, fractionLost: this.sentLossPercent / 100, packetsLost: 0 }],
        ]),
      );
    },
  };

  async connect(): Promise<void> {
    await this.server.connectGate;
    for (let attempt = 0; attempt < this.server.connectRetries; attempt++)
      this.emit('connectRetry', { attempt, error: 'Lost connection to the server (is it down?)' });
    if (this.server.connectError) throw this.server.connectError;
  }
  attachPublisher(): Promise<void> {
    return Promise.resolve();
  }
  useRoom(): void {
    this.emit('stage', { stage: 'createRoom', ok: true });
  }
  join(room: RoomOptions, display: string): Promise<unknown> {
    if (room.pin !== room.room.toLowerCase()) throw new Error('wrong pin');
    this.room = room.room;
    this.display = display;
    this.emit('stage', { stage: 'joinRoom', ok: true });
    // subscribe to who already publishes
    for (const feed of this.server.rooms.get(room.room)?.values() ?? []) this.receive(feed);
    return Promise.resolve([]);
  }
  publish(options: PublishOptions): Promise<void> {
    if (this.closed || !this.room || !this.display) throw new Error('not in a room');
    this.published = options;
    this.localStream = options.stream;
    this.#feedId = this.server.publish(this, this.display, options.stream);
    this.emit('stage', { stage: 'localStream', ok: true });
    return Promise.resolve();
  }
  startScreenShare(track: MediaStreamTrack): Promise<void> {
    if (!this.room || !this.display) throw new Error('not in a room');
    const fake = track as unknown as FakeTrack;
    this.#screenTrack = fake;
    // as MediaSession: the browser ending the track stops the share and says so
    fake.addEventListener('ended', () => void this.stopScreenShare().then(() => this.emit('screenEnded', undefined)));
    this.#screenFeedId = this.server.publish(this, `${this.display}-screen`, new FakeStream([fake]) as unknown as MediaStream);
    return Promise.resolve();
  }
  stopScreenShare(): Promise<void> {
    this.#screenTrack?.stop();
    this.#screenTrack = null;
    if (this.room && this.#screenFeedId) this.server.unpublish(this.room, this.#screenFeedId);
    this.#screenFeedId = null;
    return Promise.resolve();
  }
  get sharingScreen(): boolean {
    return this.#screenFeedId !== null;
  }
  setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    this.muted = { ...this.muted, [kind]: muted };
    return Promise.resolve();
  }
  changeDevices(): Promise<boolean> {
    this.localStream = fakeStream(true);
    return Promise.resolve(true);
  }
  close(options: { destroyRoom?: boolean } = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.closedWith = options;
    // as janus.js: a handle's cleanup stops the tracks it published, whatever its caller keeps
    for (const track of this.published?.stream.getTracks() ?? []) track.stop();
    const room = this.room;
    if (room) {
      if (this.#screenFeedId) this.server.unpublish(room, this.#screenFeedId);
      if (this.#feedId) this.server.unpublish(room, this.#feedId);
      if (options.destroyRoom) this.server.destroy(room, this);
    }
    return Promise.resolve();
  }
  peerConnections() {
    return this.room ? { subscriber: this.#subscriberPc as unknown as RTCPeerConnection } : {};
  }

  receive(feed: Feed): void {
    deliver(() => {
      if (this.closed) return;
      this.emit('publisherJoined', { feedId: feed.feedId, display: feed.display });
      const media = () => {
        // unpublished while our subscription was negotiated: nothing arrives
        if (this.closed || !this.server.rooms.get(this.room ?? '')?.has(feed.feedId)) return;
        this.emit('stage', { stage: 'remoteStream', ok: true });
        this.emit('remoteFeed', { feedId: feed.feedId, display: feed.display, stream: feed.stream });
      };
      const gate = this.subscriptionGate;
      if (gate) void gate.then(media);
      else media();
    });
  }
  gone(feed: Feed): void {
    deliver(() => {
      if (this.closed) return;
      this.emit('remoteFeedRemoved', { feedId: feed.feedId, display: feed.display });
      this.emit('publisherLeft', { feedId: feed.feedId, display: feed.display });
    });
  }
  destroyed(): void {
    deliver(() => {
      if (!this.closed) this.emit('destroyed', undefined);
    });
  }
}

// ---------------------------------------------------------------- devices, clock, page

export class FakeDevices implements DevicesPort {
  readonly requests: LocalMediaRequest[] = [];
  readonly streams: FakeStream[] = [];
  readonly screens: FakeStream[] = [];
  /** what getUserMedia waits for (a test holds the camera back) */
  gate: Promise<void> | null = null;

  async getUserMedia(request: LocalMediaRequest): Promise<MediaStream> {
    this.requests.push(request);
    await this.gate;
    const stream = fakeStream(request.video);
    this.streams.push(stream as unknown as FakeStream);
    return stream;
  }
  getDisplayMedia(): Promise<MediaStream> {
    const screen = new FakeStream([new FakeTrack('video')]);
    this.screens.push(screen);
    return Promise.resolve(screen as unknown as MediaStream);
  }
}

export class FakeClock implements ClockPort {
  time = Date.UTC(2026, 0, 1, 9, 0, 0);
  #timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): () => void {
    const timer = { at: this.time + ms, run, cancelled: false };
    this.#timers.push(timer);
    return () => (timer.cancelled = true);
  }
  /** Moves time on, running the timers due meanwhile. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.#timers.filter((t) => t.at <= this.time && !t.cancelled);
    this.#timers = this.#timers.filter((t) => !due.includes(t));
    for (const timer of due) timer.run();
  }
}

export class FakeEnvironment implements EnvironmentPort {
  hidden = false;
  #listeners = new Set<() => void>();
  pageHidden(): boolean {
    return this.hidden;
  }
  onVisibilityChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  isAndroid(): boolean {
    return false;
  }
  notificationAllowed(): boolean {
    return true;
  }
  userAgent(): string {
    return 'fake';
  }
  setHidden(hidden: boolean): void {
    this.hidden = hidden;
    for (const listener of [...this.#listeners]) listener();
  }
}

// ---------------------------------------------------------------- the world and the APIs

/** One XMPP server, one media server, one clock: what a guest and its agents share. */
export class FakeWorld {
  readonly xmpp = new FakeXmppServer();
  readonly media = new FakeMediaServer();
  readonly clock = new FakeClock();
  /** the p2p transports opened (a p2p grant makes the engines open the real P2PTransport on fake Jingle) */
  readonly p2pTransports: P2PTransport[] = [];
  /** cameras (deviceIds) whose frames the encoder never sends, as Chromium's depth camera fake_device_1 */
  readonly unsendableCameras = new Set<string>();
  /** each time an engine opened the media server's connection ahead of a call (warmMedia), its servers */
  readonly warmed: string[][] = [];
  /** what each warmMedia asked of a standby session (media/standby.ts), when the desk asked for one */
  readonly standbyRequests: StandbyRequest[] = [];
  /** how many times an engine ended what warmMedia made (coolMedia) */
  cooled = 0;
  /** the p2p transports' noise suppressor (a test's fake); the real one (none in Node: the raw microphone) by default */
  suppressNoise: SuppressNoise | null = null;

  /** The ports of one participant (its own devices and page). */
  ports(): CallPorts & { devices: FakeDevices; environment: FakeEnvironment } {
    return {
      signalling: this.xmpp.factory,
      media: (options) => {
        if (!options.p2p) return this.media.factory(options);
        const getUserMedia = (c: MediaStreamConstraints) => Promise.resolve(fakeUserMedia(c, this.unsendableCameras));
        const suppressNoise = this.suppressNoise ? { suppressNoise: this.suppressNoise } : {};
        const transport = new P2PTransport({ ...options.p2p, getUserMedia, retryDelayMs: 1, probeMs: 40, ...suppressNoise });
        this.p2pTransports.push(transport);
        return transport;
      },
      warmMedia: (servers, request) => {
        this.warmed.push(servers);
        if (request) this.standbyRequests.push(request);
      },
      coolMedia: () => void this.cooled++,
      devices: new FakeDevices(),
      clock: this.clock,
      environment: new FakeEnvironment(),
    };
  }
}

export function grantFor(callId: string): MediaGrant {
  return { room: callId, pin: callId.toLowerCase(), token: `token-${callId}`, expires_in: 60 };
}

export const ASSIGNMENT_ROOM = 'assignment-1@conference.lobby.test';

export interface FakeGuestApi extends GuestApi {
  timestamps: Array<{ callId: string; flags: TimestampFlag[] }>;
  holdCalls: Array<Parameters<GuestApi['holdCall']>[0]>;
  reports: Array<Parameters<GuestApi['updateReport']>[0]>;
  reportStatus: ReportStatus;
  grants: string[];
  /** the calls whose grant was asked with `rejoin` (the media session was lost) */
  rejoins: string[];
  /** the call-bug reports sent (POST /call-bug/by-guest) */
  bugs: Array<Record<string, unknown>>;
}

export function createFakeGuestApi(username = 'guest1'): FakeGuestApi {
  const registration: GuestRegistration = {
    jabberusername: `${username}@lobby.test`,
    username,
    guestRooms: [{ assignmentId: 1, name: 'Sales', room: ASSIGNMENT_ROOM }],
    access_token: 'token',
    credential: 'secret',
    expires_in: 3600,
    credential_expires_in: 3600,
    companyId: 1,
    location: { latitude: '', longitude: '' },
  };
  const api: FakeGuestApi = {
    timestamps: [],
    holdCalls: [],
    reports: [],
    reportStatus: 'ok',
    grants: [],
    rejoins: [],
    bugs: [],
    register: () => Promise.resolve(registration),
    mediaGrant: (callId, options) => {
      api.grants.push(callId);
      if (options?.rejoin) api.rejoins.push(callId);
      return Promise.resolve(grantFor(callId));
    },
    addReport: () => Promise.resolve({ id: 1, status: api.reportStatus }),
    updateReport: (body) => {
      api.reports.push(body);
      return Promise.resolve();
    },
    updateTimestamp: (callId, flags) => {
      api.timestamps.push({ callId, flags });
      return Promise.resolve();
    },
    callBug: (body) => {
      api.bugs.push(body);
      return Promise.resolve();
    },
    holdCall: (body) => {
      api.holdCalls.push(body);
      return Promise.resolve({ id: 2 });
    },
    upload: (_type, file) => Promise.resolve(`/api/files/${file.name ?? 'file'}`),
    fetchFile: () => Promise.resolve(new Blob([])),
  };
  return api;
}

export interface FakeConsoleApi extends ConsoleApi {
  /** the server's event stream: push a call, a routing, a transfer, an accepted transfer */
  events: {
    callOpened(room: OpenCall): void;
    routing(routing: CallRouting): void;
    transfer(transfer: IncomingTransfer): void;
    transferAccepted(accepted: TransferAccepted): void;
    /** the event stream opened (true) or was lost (false) */
    live(live: boolean): void;
    /** `resync`: the server may have missed events of its other instances */
    resync(): void;
  };
  transfers: Array<{ callId: string; to: unknown }>;
  grants: string[];
  /** the calls whose grant was asked with `rejoin` (the media session was lost) */
  rejoins: string[];
  openRooms: OpenCall[];
}

/** An open call as GET /console/rooms lists it (report 1, opened now, unless given). */
export function openCall(call: Pick<OpenCall, 'room' | 'assignmentId' | 'assignmentName' | 'guestUsername' | 'callId'> & Partial<OpenCall>): OpenCall {
  return { reportId: 1, openedAt: '2026-01-01T00:00:00.000Z', ...call };
}

export function createFakeConsoleApi(jid: string): FakeConsoleApi {
  let listeners: {
    opened: (room: OpenCall) => void;
    routing?: ((routing: CallRouting) => void) | undefined;
    live?: ((live: boolean) => void) | undefined;
    transfers?: TransferEvents | undefined;
    resync?: (() => void) | undefined;
  } | null = null;
  const pendingTransfers = new Map<number, IncomingTransfer>();
  const api: FakeConsoleApi = {
    transfers: [],
    grants: [],
    rejoins: [],
    openRooms: [openCall({ room: ASSIGNMENT_ROOM, assignmentId: 1, assignmentName: 'Sales', guestUsername: '', callId: '' })],
    events: {
      callOpened: (room) => listeners?.opened(room),
      routing: (routing) => listeners?.routing?.(routing),
      transfer: (transfer) => {
        pendingTransfers.set(transfer.id, transfer);
        listeners?.transfers?.onTransfer?.(transfer);
      },
      transferAccepted: (accepted) => listeners?.transfers?.onTransferAccepted?.(accepted),
      live: (live) => listeners?.live?.(live),
      resync: () => listeners?.resync?.(),
    },
    xmppToken: () => Promise.resolve({ jid, credential: 'secret', expires_in: 3600 }),
    mediaStandby: () => Promise.resolve({ token: `standby-${jid}`, expires_in: 3600 }),
    mediaGrant: (callId, options) => {
      api.grants.push(callId);
      if (options?.rejoin) api.rejoins.push(callId);
      return Promise.resolve(grantFor(callId));
    },
    rooms: () => Promise.resolve(api.openRooms),
    onCallOpened: (opened, routing, live, transfers, resync) => {
      listeners = { opened, routing, live, transfers, resync };
      return () => (listeners = null);
    },
    transfer: (callId, to) => {
      api.transfers.push({ callId, to });
      return Promise.resolve({ id: 7 });
    },
    acceptTransfer: (id) => {
      const room = ASSIGNMENT_ROOM;
      const call = pendingTransfers.get(id);
      if (!call) return Promise.reject(new Error('no such transfer'));
      return Promise.resolve({ id, callId: call.callId, room, guestUsername: call.guestUsername });
    },
    upload: (_type, file) => Promise.resolve(`/api/files/${file.name ?? 'file'}`),
  };
  return api;
}
