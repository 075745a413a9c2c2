/**
 * The agent's side (the console), framework-free.
 *
 *   start()    XMPP token → session → join the rooms of open calls (and of each new one, live)
 *   queue      guests whose room presence says OpenCall, oldest first
 *   answer()   join the call's Janus room (pin in lowercase) and publish; the guest subscribes
 *   hangup()   end control to the room, leave the media room
 */
import { guestUsernameOf } from '../callId.ts';
import { InCallEngine } from '../room/inCallEngine.ts';
import { presenceImageUrl, presenceName, type LobbyPresenceElement } from '../presence.ts';
import { buildList, withPresence, type ListedStatus, type QueueContext, type QueueEntry } from './waitingQueue.ts';

import { eachLimited } from './eachLimited.ts';

export { targetsMe, type QueueEntry } from './waitingQueue.ts';

/** room joins sent at once when the console starts with many waiting guests (eachLimited.ts) */
const ROOM_JOINS_IN_FLIGHT = 16;
import type { CallRoutingInfo as CallRouting, IncomingTransfer } from '@lobby/contracts';
import type { ConsoleApi, OpenCallRoom } from '../api/consoleApi.ts';
import type { RemoteFeed } from '../media/mediaSession.ts';
import type { ChatMessage, RoomPresence } from '../xmpp/session.ts';
import { initialCallStatus, type CallStatus } from '../state/callStatus.ts';
import { CallRoom, type FeedHooks } from '../room/callRoom.ts';
import { isP2PGrant, transportFor } from '../room/p2pCall.ts';
import type { CallPorts, SignallingPort } from '../room/ports.ts';
import type { StandbyRequest } from '../media/standby.ts';
import { ICE_FAILED, lostCode, type MediaNotice } from '../media/mediaHealth.ts';
import { UNKNOWN_QUALITY, type NetworkQuality } from '../media/networkQuality.ts';

export type AgentPhase = 'offline' | 'connecting' | 'idle' | 'joining' | 'inCall';

export interface ActiveCall {
  callId: string;
  room: string;
  guestNick: string;
  startedAt: number;
  callType: 'video' | 'voice';
  /** the guest's latest room presence status (e.g. InCall|agent@lobby.local|callId) */
  guestStatus: string;
  /** on hold (we put it there); resume() continues it under a new call id */
  held?: boolean;
  /** we joined a call another agent answered (a supervisor): hanging up only leaves */
  joined?: boolean;
  /** we took it over by transfer (p2p: the first agent hands over on our answer, sent once we publish) */
  transferred?: boolean;
}

export interface AgentSnapshot {
  phase: AgentPhase;
  jid: string | null;
  queue: QueueEntry[];
  /** calls another agent is in (the guest's presence says InCall): a supervisor may join them */
  runningCalls: QueueEntry[];
  activeCall: ActiveCall | null;
  localStream: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  muted: { audio: boolean; video: boolean };
  error: string | null;
  /** the last call that ended, and why */
  lastEnded: { callId: string; reason: 'agent' | 'guest' | 'error' | 'transferred' } | null;
  /**
   * The active call's status (docs/protocol.md "Call status": chatMessages newest first, unreadMessages,
   * isChatOpen, mutedAudioJIDs / mutedVideoJIDs of the others, screenShare, isZoomed); fresh per call.
   */
  status: CallStatus;
  /** our own shared screen while status.screenShare */
  localScreen: MediaStream | null;
  /** the server's event stream is open: new calls (and round-robin offers) reach this console */
  live: boolean;
  /** calls other agents hand to us, waiting for us to take them */
  transfers: IncomingTransfer[];
  /** the media server is waited for or reconnected to (media/mediaHealth.ts): shown to the agent */
  mediaNotice: MediaNotice;
  /** the line's quality in the active call (media/networkQuality.ts), for the indicator */
  networkQuality: NetworkQuality;
  /** the next answer needs nothing more made ahead: a standby media session is ready, or calls are p2p (media/standby.ts) */
  mediaReady: boolean;
}

export interface AgentDeskOptions {
  api: ConsoleApi;
  /** the agent's name from its console account, announced to guests in room presence */
  displayName?: string;
  /** the agent's picture (peers profileImageUrl), announced to guests in room presence */
  profileImageUrl?: string;
  xmppWsUrl: string;
  janusServers: string[];
  videoConstraints?: MediaTrackConstraints;
  /** the console user's company (uploads) */
  companyId?: number;
  /** signalling, media transport, devices, clock and page (src/room/ports.ts); the real ones by default */
  ports?: Partial<CallPorts>;
}

export class AgentDesk extends InCallEngine<{ change: AgentSnapshot }> {
  readonly #options: AgentDeskOptions;
  #xmpp: SignallingPort | null = null;
  /** the picture chosen since the start (setProfileImageUrl; null: none); undefined: the options' */
  #profileImageUrl: string | null | undefined = undefined;
  /** the in-call core (media, feeds, mute, devices, screen, chat, hold and end teardown) */
  protected readonly inCall: CallRoom;
  #nick = '';
  #rooms = new Map<string, OpenCallRoom>();
  /** round robin: the latest routing of each call (callId → routing) */
  #routing = new Map<string, CallRouting>();
  /** call id → the room/nick keys of #presence whose presence names that call (routing touches only these) */
  #callOccupants = new Map<string, Set<string>>();
  /** what round robin was last told (so busy/away changes are sent once) */
  #told = '';
  #away = false;
  #unsubscribe: (() => void) | null = null;
  /** last presence per room occupant, `room/nick` → presence */
  #presence = new Map<string, RoomPresence>();
  #snapshot: AgentSnapshot = {
    phase: 'offline',
    jid: null,
    queue: [],
    runningCalls: [],
    activeCall: null,
    localStream: null,
    remoteFeeds: [],
    muted: { audio: false, video: false },
    error: null,
    lastEnded: null,
    status: initialCallStatus(),
    localScreen: null,
    live: false,
    transfers: [],
    mediaNotice: null,
    networkQuality: UNKNOWN_QUALITY,
    mediaReady: false,
  };

  constructor(options: AgentDeskOptions) {
    super();
    this.#options = options;
    this.inCall = new CallRoom({
      ports: options.ports,
      room: () => this.#snapshot.activeCall?.room ?? null,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      signalling: () => this.#xmpp,
      videoConstraints: options.videoConstraints,
    });
  }

  get snapshot(): AgentSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<AgentSnapshot>): void {
    const wasBusy = this.#snapshot.activeCall !== null;
    this.#snapshot = { ...this.#snapshot, ...patch };
    if ((this.#snapshot.activeCall !== null) !== wasBusy) this.#tellAvailability();
    // calls wait and we are free: the media server's connection, and a Janus session with its handles
    // when the API gives a standby token, are made now, off the answer's path
    if (this.#snapshot.phase === 'idle' && this.#snapshot.queue.length > 0) {
      this.inCall.ports.warmMedia?.(this.#options.janusServers, this.#standbyRequest());
    }
    this.emit('change', this.#snapshot);
  }

  #standbyRequest(): StandbyRequest | undefined {
    const { api } = this.#options;
    const xmpp = this.#xmpp;
    if (!api.mediaStandby || !xmpp) return undefined;
    return {
      iceServers: xmpp.iceServers,
      token: () => api.mediaStandby!(),
      onReady: (ready) => {
        if (this.#snapshot.mediaReady !== ready) this.#set({ mediaReady: ready });
      },
      wanted: () => this.#snapshot.phase === 'idle' && this.#snapshot.queue.length > 0,
    };
  }

  async start(): Promise<void> {
    this.#set({ phase: 'connecting', error: null });
    const token = await this.#options.api.xmppToken();
    const xmpp = this.inCall.ports.signalling({
      wsUrl: this.#options.xmppWsUrl,
      jid: token.jid,
      credential: token.credential,
      // each console tab is its own resource, so two tabs never kick each other
      resource: `console-${Math.random().toString(36).slice(2, 10)}`,
      // a reconnection hours later needs a credential that has not expired
      refreshCredential: async () => (await this.#options.api.xmppToken()).credential,
    });
    this.#xmpp = xmpp;
    this.#nick = token.jid.split('@')[0] ?? token.jid;
    xmpp.on('roomPresence', (presence) => this.#onPresence(presence));
    xmpp.on('control', (control) => {
      // p2p: an agent's answer (a transfer's taker is ready for the guest's Jingle session)
      if (control.action === 'answer' && control.peer) {
        this.#answered = { callId: control.callId, jid: control.peer.split('/')[0]!.toLowerCase() };
        this.#handOverIfArrived();
      }
      const active = this.#snapshot.activeCall;
      if (
        control.action === 'end' &&
        active &&
        control.callId === active.callId &&
        !control.from.endsWith(`/${this.#nick}`)
      ) {
        void this.#leaveCall('guest');
      }
    });
    xmpp.on('chat', (message) => this.#onChat(message));
    // a call's media does not depend on the XMPP stream: the call goes on while it reconnects
    xmpp.on('disconnected', () => {
      if (!this.#snapshot.activeCall) this.#set({ phase: 'offline' });
    });
    xmpp.on('reconnected', () => void this.#rejoinRooms('signalling'));
    await xmpp.connect();
    this.#set({ phase: 'idle', jid: token.jid });
    this.#unsubscribe = this.#options.api.onCallOpened(
      (room) => void this.#joinRoom(room),
      (routing) => this.#onRouting(routing),
      (live) => this.#onLive(live),
      {
        onTransfer: (transfer) => this.#onTransfer(transfer),
        onTransferAccepted: (accepted) => this.#onTransferAccepted(accepted),
      },
    );
    this.#tellAvailability();
    const rooms = await this.#options.api.rooms();
    for (const room of rooms) if (room.routing) this.#storeRouting(room.routing);
    await eachLimited(rooms, ROOM_JOINS_IN_FLIGHT, (room) => this.#joinRoom(room));
    this.#set({ queue: this.#computeQueue() });
  }

  /**
   * Keeps a call's routing with the offer's end on this browser's clock: never later than the offer's
   * length from now, so a clock ahead of or behind the server's never shows more than the offer time.
   */
  #storeRouting(routing: CallRouting): void {
    const serverEnd = routing.expiresAt ? Date.parse(routing.expiresAt) : null;
    const localEnd =
      serverEnd !== null && routing.offerSeconds ? Math.min(serverEnd, this.inCall.ports.clock.now() + routing.offerSeconds * 1000) : serverEnd;
    this.#routing.set(routing.callId, { ...routing, expiresAt: localEnd === null ? null : new Date(localEnd).toISOString() });
  }

  /**
   * Round robin routed one call: only the entry of that call's occupant can change (waitingQueue.ts).
   * Rebuilding the queue from every presence here cost the console N entries per routing event; with
   * thousands waiting and their churn (several routing events per arrival) its main thread stalled for
   * seconds (docs/performance.md "Waiting guests").
   */
  #onRouting(routing: CallRouting): void {
    this.#storeRouting(routing);
    const ctx = this.#queueContext();
    let queue = this.#snapshot.queue;
    for (const key of this.#callOccupants.get(routing.callId) ?? []) {
      const presence = this.#presence.get(key);
      if (presence) queue = withPresence(queue, presence, 'OpenCall', ctx);
    }
    if (queue !== this.#snapshot.queue) this.#set({ queue });
  }

  /** Keeps #callOccupants (call id → room/nick keys whose last presence names it) with #presence. */
  #indexPresence(key: string, presence: RoomPresence | null): void {
    const before = this.#presence.get(key)?.info.callId;
    const after = presence?.info.callId;
    if (before === after) return;
    if (before) {
      const keys = this.#callOccupants.get(before);
      keys?.delete(key);
      if (keys?.size === 0) this.#callOccupants.delete(before);
    }
    if (after) {
      const keys = this.#callOccupants.get(after) ?? new Set<string>();
      keys.add(key);
      this.#callOccupants.set(after, keys);
    }
  }

  /** Round robin offers calls only to available agents who are not in a call. */
  setAway(away: boolean): void {
    this.#away = away;
    this.#tellAvailability();
  }

  #tellAvailability(): void {
    const body = { availability: this.#away ? ('away' as const) : ('available' as const), busy: this.#snapshot.activeCall !== null };
    const key = JSON.stringify(body);
    if (key === this.#told || !this.#options.api.setAvailability || this.#snapshot.phase === 'offline') return;
    this.#told = key;
    this.#options.api.setAvailability(body).catch(() => {
      this.#told = ''; // told again on the next change
    });
  }

  #onTransfer(transfer: IncomingTransfer): void {
    this.#set({ transfers: [...this.#snapshot.transfers.filter((t) => t.id !== transfer.id), transfer] });
    // join the guest's room: its presence tells us the call's state and type
    void this.#joinRoom({ room: transfer.room, assignmentId: 0, guestUsername: transfer.guestUsername, callId: transfer.callId });
  }

  /** Somebody took a transfer: drop it from our list; if it was our call, leave once the new agent is in. */
  #onTransferAccepted(accepted: { id: number; callId: string; toJid: string }): void {
    this.#set({ transfers: this.#snapshot.transfers.filter((t) => t.id !== accepted.id) });
    const active = this.#snapshot.activeCall;
    if (!active || active.callId !== accepted.callId || accepted.toJid === this.#snapshot.jid) return;
    this.#handOverTo = accepted.toJid;
    this.#handOverIfArrived();
  }

  /** the agent our call is handed over to: we leave (without ending the call) once its feed is in */
  #handOverTo: string | null = null;

  /** p2p: the latest agent who answered a call (a transfer's taker): no media room shows us its feed */
  #answered: { callId: string; jid: string } | null = null;

  #handOverIfArrived(): void {
    const to = this.#handOverTo;
    const answered = this.#answered;
    const takerReady =
      !!answered && answered.callId === this.#activeCallId() && answered.jid === to?.toLowerCase();
    if (to && (takerReady || this.#snapshot.remoteFeeds.some((f) => f.display === to))) {
      this.#handOverTo = null;
      void this.#leaveCall('transferred');
    }
  }

  /** Who could take our call now (agents available, and the assignments). */
  async transferTargets() {
    if (!this.#options.api.transferTargets) return { agents: [], assignments: [] };
    return this.#options.api.transferTargets();
  }

  /** Hands our call to an agent or an assignment's agents; we stay until the new agent is in the call. */
  async transfer(to: { toUserId: number } | { assignmentId: number }): Promise<void> {
    const active = this.#snapshot.activeCall;
    if (!active || !this.#options.api.transfer) throw new Error('not in a call');
    await this.#options.api.transfer(active.callId, to);
  }

  /** Takes a call handed to us: we become its agent and join its media room; the guest stays in it. */
  async acceptTransfer(id: number): Promise<void> {
    const transfer = this.#snapshot.transfers.find((t) => t.id === id);
    const xmpp = this.#xmpp;
    if (!transfer || !xmpp || !this.#options.api.acceptTransfer) throw new Error('no such transfer');
    if (this.#snapshot.activeCall) throw new Error('already in a call');
    const taken = await this.#options.api.acceptTransfer(id);
    const guest = this.#presence.get(`${taken.room}/${taken.guestUsername}`);
    const callType = guest?.lobby?.callType === 'voice' ? 'voice' : 'video';
    this.#set({ transfers: this.#snapshot.transfers.filter((t) => t.id !== id) });
    await this.#enterCall(
      { callId: taken.callId, room: taken.room, guestNick: taken.guestUsername, callType, guestStatus: guest?.statusText ?? '', transferred: true },
      callType === 'video',
      xmpp,
    );
  }

  /** Declines a call round robin offers us: it moves to the next available agent. */
  async decline(callId: string): Promise<void> {
    if (!this.#options.api.decline) throw new Error('declining is not available');
    await this.#options.api.decline(callId);
  }

  /** Joins a guest's room (once; `again` after a reconnection, when the new stream is in no room). */
  async #joinRoom(room: OpenCallRoom, again = false): Promise<void> {
    const xmpp = this.#xmpp;
    if (!xmpp) return;
    const known = this.#rooms.has(room.room);
    this.#rooms.set(room.room, room);
    if (known && !again) return;
    try {
      await xmpp.joinRoom(room.room, this.#nick, '', this.#lobbyElement());
    } catch (error) {
      this.#rooms.delete(room.room);
      this.#set({ error: `could not join ${room.room}: ${String(error)}` });
    }
  }

  #onPresence(presence: RoomPresence): void {
    if (presence.self) return;
    const key = `${presence.room}/${presence.nick}`;
    this.#indexPresence(key, presence.available ? presence : null);
    if (presence.available) this.#presence.set(key, presence);
    else this.#presence.delete(key);
    const active = this.#snapshot.activeCall;
    if (active && active.room === presence.room && presence.nick !== this.#nick) this.inCall.presenceMuted(presence);
    if (active && active.room === presence.room && active.guestNick === presence.nick) {
      // the guest's page goes, and the website's next page brings the call back (docs/widget.md)
      // (a join without a status, the next page's first presence, changes nothing yet)
      if (presence.available && presence.info.status) this.#guestNavigating = presence.info.status === 'Navigating' ? active.callId : null;
      if (presence.available) this.#set({ activeCall: { ...active, guestStatus: presence.statusText } });
      else this.#awaitGuest(active);
      const info = presence.info;
      if (presence.available && info.status === 'CallResumed' && info.callId && info.callId !== active.callId)
        this.#followResumed(info.callId);
    }
    // only this occupant's entry can change (waitingQueue.ts); nothing listed changed: no re-render
    const ctx = this.#queueContext();
    const queue = withPresence(this.#snapshot.queue, presence, 'OpenCall', ctx);
    this.#keepPlaces(this.#snapshot.queue, queue, ctx.now);
    const runningCalls = withPresence(this.#snapshot.runningCalls, presence, 'InCall', ctx);
    if (queue !== this.#snapshot.queue || runningCalls !== this.#snapshot.runningCalls) this.#set({ queue, runningCalls });
  }

  /** Members whose status is OpenCall are in an open call; everyone else is removed (docs/protocol.md). */
  #computeQueue(wanted: ListedStatus = 'OpenCall'): QueueEntry[] {
    const previous = wanted === 'OpenCall' ? this.#snapshot.queue : this.#snapshot.runningCalls;
    return buildList(this.#presence.values(), wanted, this.#queueContext(), previous);
  }

  #queueContext(): QueueContext {
    const now = this.inCall.ports.clock.now();
    const returning = new Map<string, number>();
    for (const [callId, kept] of this.#places) {
      if (now - kept.left > PLACE_KEPT_MS) this.#places.delete(callId);
      else returning.set(callId, kept.since);
    }
    return { nick: this.#nick, rooms: this.#rooms, routing: this.#routing, now, returning };
  }

  /** waiting calls that left the queue lately: their place, for a guest that comes back to it */
  #places = new Map<string, { since: number; left: number }>();

  #keepPlaces(before: QueueEntry[], after: QueueEntry[], now: number): void {
    if (before === after) return;
    const listed = new Set(after.map((e) => e.callId));
    for (const entry of before) if (!listed.has(entry.callId)) this.#places.set(entry.callId, { since: entry.since, left: now });
  }

  /** Answers a waiting guest: joins the call's media room and publishes camera and microphone. */
  async answer(callId: string, options: { video?: boolean } = {}): Promise<void> {
    const entry = this.#snapshot.queue.find((e) => e.callId === callId);
    const xmpp = this.#xmpp;
    if (!entry || !xmpp) throw new Error('no such waiting call');
    if (this.#snapshot.activeCall) throw new Error('already in a call');
    const activeCall = { callId, room: entry.room, guestNick: entry.nick, callType: entry.callType, guestStatus: entry.statusText };
    await this.#enterCall(activeCall, options.video ?? entry.callType === 'video', xmpp, () => {
      // the guest may have muted before we answered: its latest presence says so
      const guestPresence = this.#presence.get(`${entry.room}/${entry.nick}`);
      if (guestPresence) this.#onPresence(guestPresence);
    });
  }

  /**
   * Enters a call (answered, taken over by transfer, or joined as a supervisor): it becomes the active
   * call with a fresh status, then we join its media room and publish; a failure leaves it again.
   */
  async #enterCall(
    call: Omit<ActiveCall, 'startedAt'>,
    video: boolean,
    xmpp: SignallingPort,
    entered?: () => void,
  ): Promise<void> {
    this.#set({
      phase: 'joining',
      activeCall: { ...call, startedAt: this.inCall.ports.clock.now() },
      error: null,
      lastEnded: null,
      status: { ...initialCallStatus(), callStarted: true },
      localScreen: null,
    });
    entered?.();
    try {
      await this.#joinMedia(call.callId, video, call.guestNick, xmpp);
    } catch (error) {
      await this.#leaveCall('error');
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Joins a call's Janus room (pin in lowercase) and publishes camera and microphone. */
  async #joinMedia(callId: string, video: boolean, guestNick: string, xmpp: SignallingPort): Promise<void> {
    // The camera starts while the media session is set up and joined (as a bare janus.js client
    // does): the subscription to the guest begins at join and need not wait for our own devices.
    const gum = this.inCall.ports.devices.getUserMedia({
      // a voice call stays a voice call on both sides
      video,
      ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
    });
    gum.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
    // the call's room, its pin and our Janus token come from the server (docs/protocol.md "Media room")
    const grant = await this.#options.api.mediaGrant(callId);
    // p2p (docs/protocol.md "p2p"): we take the Jingle session of the call's guest, and no one else's
    const room = this.#snapshot.activeCall?.room ?? '';
    const guestJid = this.#presence.get(`${room}/${guestNick}`)?.jid ?? '';
    const transport = transportFor(
      grant,
      callId,
      { servers: this.#options.janusServers, xmpp },
      { role: 'responder', expect: guestJid.split('/')[0]!, expectDisplay: guestNick },
    );
    const media = this.inCall.open(transport.options, {
      feedAdded: () => this.#handOverIfArrived(),
      health: this.#mediaHealth(),
    });
    media.on('publisherLeft', ({ feedId, display }) => {
      if (!this.inCall.isCurrent(media) || display !== guestNick) return;
      // the guest's previous page's camera going after its next page's came: the guest is here
      if (this.#snapshot.remoteFeeds.some((feed) => feed.display === guestNick && feed.feedId !== feedId)) return;
      if (this.#guestNavigating === callId) this.#awaitGuestMedia(callId, guestNick);
      else void this.#leaveCall('guest');
    });
    media.on('destroyed', () => {
      if (this.inCall.isCurrent(media)) void this.#leaveCall('guest');
    });
    // p2p: the guest opens its session toward this console tab once told where it is; at once (the
    // guest's offer travels while our camera opens; the session is accepted once we publish), but a
    // transfer's taker only once published: the first agent hands over on this answer
    const answer = () => {
      if (isP2PGrant(grant) && xmpp.jingle && this.#activeCallId() === callId)
        xmpp.sendControl(room, { action: 'answer', callId, peer: xmpp.jingle.self });
    };
    const early = !this.#snapshot.activeCall?.transferred;
    const published = await this.inCall.joinAndPublish(media, {
      connected: early ? answer : undefined,
      room: transport.room,
      display: this.#snapshot.jid ?? this.#nick,
      stream: gum,
      video,
    });
    if (published && this.#activeCallId() === callId) {
      if (!early) answer();
      this.#set({ phase: 'inCall' });
    }
  }

  /**
   * Holds the call (by the agent; docs/protocol.md "Hold and resume"): tells the guest, leaves the room and
   * stops our camera; the guest shows its hold page. The call stays ours (activeCall.held).
   */
  async hold(): Promise<void> {
    const active = this.#snapshot.activeCall;
    const xmpp = this.#xmpp;
    if (!active || active.held || !xmpp) return;
    this.#set({ activeCall: { ...active, held: true } });
    const holding = this.inCall.hold(
      (s) => ({ ...s, peerCall: 'Paused', OnHoldCount: s.OnHoldCount + 1, isZoomed: false }),
      () => xmpp.sendControl(active.room, { action: 'hold', callId: active.callId }),
      { hold: true }, // p2p: Jingle session-info <hold/> before the session ends
    );
    this.#set({ muted: { audio: false, video: false } });
    await holding;
  }

  /**
   * Resumes a held call: the guest moves to a new call id (linked by POST /call-report/hold-call) and
   * announces CallResumed|agent|newCallId once it has published there; we follow into that room.
   */
  resume(): void {
    const active = this.#snapshot.activeCall;
    if (!active?.held || !this.#xmpp) return;
    this.#resuming = true;
    this.#xmpp.sendControl(active.room, { action: 'resume', callId: active.callId });
  }

  #resuming = false;

  #followResumed(newCallId: string): void {
    const active = this.#snapshot.activeCall;
    const xmpp = this.#xmpp;
    if (!active?.held || !this.#resuming || !xmpp) return;
    this.#resuming = false;
    this.#set({
      phase: 'joining',
      activeCall: { ...active, callId: newCallId, held: false, startedAt: this.inCall.ports.clock.now() },
    });
    this.#setStatus((s) => ({ ...s, peerCall: 'Resumed' }));
    // the hold's media teardown ends before we follow the guest into the new room
    this.inCall.holding
      .then(() => this.#joinMedia(newCallId, active.callType === 'video', active.guestNick, xmpp))
      .catch(async (error: unknown) => {
        await this.#leaveCall('error');
        this.#set({ error: error instanceof Error ? error.message : String(error) });
      });
  }

  #setStatus(update: (status: CallStatus) => CallStatus): void {
    this.#set({ status: update(this.#snapshot.status) });
  }

  /** Chat in the active call's room (newest first; unread while the chat is closed). */
  #onChat(message: ChatMessage): void {
    const active = this.#snapshot.activeCall;
    if (!active || message.room !== active.room || message.delayed) return;
    const mine = message.nick === this.#nick;
    const occupant = this.#presence.get(`${message.room}/${message.nick}`);
    const from = mine ? (this.#snapshot.jid ?? message.nick) : (occupant?.jid?.split('/')[0] ?? message.nick);
    this.inCall.receiveChat(message, mine, from);
  }

  async sendFile(file: Blob & { name?: string }): Promise<void> {
    const active = this.#snapshot.activeCall;
    const { api, companyId } = this.#options;
    if (!active || !this.#xmpp?.connected) throw new Error('not in a call');
    if (!api.upload || companyId === undefined) throw new Error('uploads are not available');
    await this.inCall.sendFile(file, (type, blob) => api.upload!(type, blob, companyId, guestUsernameOf(active.callId)));
  }

  /** Shares the agent's screen as `{jid}-screen` in the call's room. */
  async startScreenShare(): Promise<void> {
    if (!this.#activeCallId()) return;
    await this.inCall.startScreenShare();
  }

  /**
   * Joins a call another agent is in (a supervisor, up to the room's 10 publishers): publishes in its
   * media room; the guest and the other agent receive us. Hanging up only leaves.
   */
  async join(callId: string): Promise<void> {
    const entry = this.#snapshot.runningCalls.find((e) => e.callId === callId);
    const xmpp = this.#xmpp;
    if (!entry || !xmpp) throw new Error('no such running call');
    if (this.#snapshot.activeCall) throw new Error('already in a call');
    const call = { callId, room: entry.room, guestNick: entry.nick, callType: entry.callType, guestStatus: entry.statusText, joined: true };
    await this.#enterCall(call, entry.callType === 'video', xmpp);
  }

  // ---- signalling reconnection: the XMPP stream dropped and came back -----------------------------------
  /** the server's event stream was lost since it last opened: calls opened meanwhile were not announced */
  #liveLost = false;

  #onLive(live: boolean): void {
    if (!live && this.#snapshot.live) this.#liveLost = true;
    this.#set({ live });
    if (live && this.#liveLost) {
      this.#liveLost = false;
      void this.#rejoinRooms('events');
    }
  }

  /**
   * Joins the rooms of the open calls again and rebuilds the queue from their presence: after
   * the XMPP session reconnected (`signalling`: the new stream is in no room, so every room is joined again
   * and its occupants' presence read afresh) and after the server's event stream came back (`events`: calls
   * opened meanwhile were never announced). The one place that decides which rooms a console is in after a
   * loss, so that how the console learns of waiting guests can change here.
   */
  #rejoinRooms(after: 'signalling' | 'events'): Promise<void> {
    // one at a time: the XMPP stream and the event stream often come back together
    this.#rejoining = this.#rejoining
      .then(() => this.#rejoinRoomsNow(after))
      .catch((error: unknown) => console.warn(`rejoining rooms after ${after}: ${String(error)}`));
    return this.#rejoining;
  }

  #rejoining: Promise<void> = Promise.resolve();

  async #rejoinRoomsNow(after: 'signalling' | 'events'): Promise<void> {
    const xmpp = this.#xmpp;
    if (!xmpp) return;
    if (after === 'signalling' && this.#snapshot.phase === 'offline') this.#set({ phase: 'idle' });
    const open = await this.#options.api.rooms().catch(() => null);
    for (const room of open ?? []) if (room.routing) this.#storeRouting(room.routing);
    // the server cannot say (it restarts too): the rooms we were in
    const wanted = new Map((open ?? [...this.#rooms.values()]).map((r) => [r.room, r]));
    // our call's room, and the rooms of calls handed to us, whatever the list says
    const active = this.#snapshot.activeCall;
    if (active && !wanted.has(active.room)) wanted.set(active.room, this.#rooms.get(active.room) ?? { room: active.room, assignmentId: 0, guestUsername: active.guestNick, callId: active.callId });
    for (const t of this.#snapshot.transfers) if (!wanted.has(t.room)) wanted.set(t.room, { room: t.room, assignmentId: 0, guestUsername: t.guestUsername, callId: t.callId });
    // as many at once as the first join (a console following a thousand waiting guests rejoins in seconds)
    await eachLimited([...wanted.values()], ROOM_JOINS_IN_FLIGHT, async (room) => {
      if (after === 'signalling') this.#forgetPresence((r) => r === room.room);
      await this.#joinRoom(room, after === 'signalling');
    });
    if (after === 'signalling') {
      // rooms of calls that ended meanwhile are not joined again: their occupants are gone from the queue
      for (const room of [...this.#rooms.keys()]) if (!wanted.has(room)) this.#rooms.delete(room);
      this.#forgetPresence((r) => !this.#rooms.has(r));
      const call = this.#snapshot.activeCall;
      if (call && !this.#presence.has(`${call.room}/${call.guestNick}`)) this.#awaitGuest(call);
    }
    this.#set({ queue: this.#computeQueue(), runningCalls: this.#computeQueue('InCall') });
  }

  #forgetPresence(ofRoom: (room: string) => boolean): void {
    for (const [key, presence] of this.#presence)
      if (ofRoom(presence.room)) {
        this.#indexPresence(key, null);
        this.#presence.delete(key);
      }
  }

  /** the call whose guest said its page is being replaced (presence Navigating) */
  #guestNavigating: string | null = null;

  /**
   * The guest's media left because its page is being replaced by the website's next one, which
   * publishes again: the call ends only if no media of the guest's is back after NAVIGATION_RETURN_MS.
   */
  #awaitGuestMedia(callId: string, guestNick: string): void {
    this.inCall.ports.clock.setTimeout(() => {
      if (this.#activeCallId() !== callId) return;
      if (!this.#snapshot.remoteFeeds.some((feed) => feed.display === guestNick)) void this.#leaveCall('guest');
    }, NAVIGATION_RETURN_MS);
  }

  /**
   * The guest of our call is not in its room (it left, or its connection dropped). Its media goes on
   * meanwhile, and a guest that reconnects is back within its backoff (at most 10 s, plus the
   * connect), so the call ends only if it is still away after GUEST_RETURN_MS; a guest that really left
   * ends it sooner through the media (its publisher leaves, or the room is destroyed). While our own
   * stream is down nothing is decided: the rejoin looks again.
   */
  #awaitGuest(call: ActiveCall): void {
    this.inCall.ports.clock.setTimeout(() => {
      if (this.#activeCallId() !== call.callId || !this.#xmpp?.connected) return;
      if (!this.#presence.has(`${call.room}/${call.guestNick}`)) void this.#leaveCall('guest');
    }, this.#guestNavigating === call.callId ? NAVIGATION_RETURN_MS : GUEST_RETURN_MS);
  }
  // ---- end of signalling reconnection -----------------------------------------------------------------

  // ---- resilience: the media server waited for, reconnected to, or lost -------------------------------
  /**
   * Janus lost the call's session (restarted or crashed): the call ends with MEDIA_LOST as its error;
   * our own connection stayed down through every ICE restart: it ends with ICE_FAILED.
   */
  #mediaHealth(): FeedHooks['health'] {
    return {
      notice: (mediaNotice) => this.#set({ mediaNotice }),
      // MEDIA_LOST when Janus came back without the session (restarted), MEDIA_SERVER_DOWN while it is still unreachable
      onLost: (error) => void this.#leaveCall('error').then(() => this.#set({ error: lostCode(error) })),
      onIceFailed: () => void this.#leaveCall('error').then(() => this.#set({ error: ICE_FAILED })),
      quality: (networkQuality) => this.#set({ networkQuality }),
    };
  }
  // ---- end of resilience ------------------------------------------------------------------------------

  /** Read through a method: TypeScript would keep an earlier narrowing of the snapshot field. */
  #activeCallId(): string | null {
    return this.#snapshot.activeCall?.callId ?? null;
  }

  async hangup(): Promise<void> {
    const active = this.#snapshot.activeCall;
    if (!active) return;
    if (!active.joined) this.#xmpp?.sendControl(active.room, { action: 'end', callId: active.callId });
    await this.#leaveCall('agent');
  }

  async #leaveCall(reason: 'agent' | 'guest' | 'error' | 'transferred'): Promise<void> {
    if (reason !== 'transferred') this.#handOverTo = null;
    const active = this.#snapshot.activeCall;
    if (!active) return;
    // Everything of this call is taken now: closing the media session takes a while (up to the
    // gateway's destroy timeout), and the agent may answer the next call meanwhile, whose camera and
    // state must not be touched by this call's teardown.
    const taken = this.inCall.takeAll();
    const wasMuted = this.#snapshot.muted.audio || this.#snapshot.muted.video;
    this.#set({
      phase: this.#xmpp?.connected ? 'idle' : 'offline',
      mediaNotice: null,
      networkQuality: UNKNOWN_QUALITY,
      activeCall: null,
      remoteFeeds: [],
      lastEnded: { callId: active.callId, reason },
      localStream: null,
      localScreen: null,
      muted: { audio: false, video: false },
    });
    if (wasMuted) this.#sendMuteState(active.room);
    await this.inCall.dispose(taken);
  }

  protected callIsVideo(): boolean {
    return (this.#snapshot.activeCall?.callType ?? 'video') === 'video';
  }

  /** Mutes our microphone or camera and tells the call's room through our presence there. */
  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    this.inCall.setMuted(kind, muted);
    const active = this.#snapshot.activeCall;
    if (active) this.#sendMuteState(active.room);
  }

  #sendMuteState(room: string): void {
    if (!this.#xmpp?.connected) return;
    const { audio, video } = this.#snapshot.muted;
    this.#xmpp.setRoomPresence(room, this.#nick, '', {
      ...this.#lobbyElement(),
      ...(audio ? { audioMuted: true } : {}),
      ...(video ? { videoMuted: true } : {}),
    });
  }

  /**
   * The console user chose a new picture (or none: null): announced at once in every guest room we are
   * in, so that a guest in a call or waiting sees it without the console starting again.
   */
  setProfileImageUrl(url: string | null): void {
    this.#profileImageUrl = url;
    if (!this.#xmpp?.connected) return;
    const active = this.#snapshot.activeCall?.room;
    for (const room of new Set([...this.#rooms.keys(), ...(active ? [active] : [])])) {
      if (room === active) this.#sendMuteState(room);
      else this.#xmpp.setRoomPresence(room, this.#nick, '', this.#lobbyElement());
    }
  }

  /** The agent's presence element in a guest's room: its name and picture go with it (docs/protocol.md). */
  #lobbyElement(): LobbyPresenceElement {
    const name = presenceName(this.#options.displayName);
    const profileImageUrl = presenceImageUrl(this.#profileImageUrl === undefined ? this.#options.profileImageUrl : this.#profileImageUrl);
    return { userType: 'agent', appointmentID: '', ...(name ? { name } : {}), ...(profileImageUrl ? { profileImageUrl } : {}) };
  }

  async stop(): Promise<void> {
    await this.hangup();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#xmpp?.disconnect();
    this.#xmpp = null;
    this.inCall.ports.coolMedia?.();
    this.#set({ phase: 'offline', queue: [], live: false, mediaReady: false });
  }
}

/** How long a call waits for its guest to come back to the room (its reconnect backoff, 10 s, and more). */
const GUEST_RETURN_MS = 20_000;
/**
 * How long the agent waits for a navigating guest's media (docs/widget.md "Moving between pages"): the
 * next page loads, registers, joins and publishes, which a busy phone or network can stretch well past
 * the few seconds it takes here.
 */
const NAVIGATION_RETURN_MS = 45_000;
/** how long a waiting call's place is kept after its guest left the queue (a page change takes seconds) */
const PLACE_KEPT_MS = 60_000;
