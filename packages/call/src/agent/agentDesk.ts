/**
 * The agent's side (the console), framework-free.
 *
 *   start()    XMPP token → session → join the rooms of open calls (and of each new one, live)
 *   queue      guests whose room presence says OpenCall, oldest first
 *   answer()   join the call's Janus room (pin in lowercase) and publish; the guest subscribes
 *   hangup()   end control to the room, leave the media room
 */
import { guestUsernameOf } from '../callId.ts';
import { Emitter } from '../emitter.ts';
import { presenceName, type LobbyPresenceElement, type PresenceInfo } from '../presence.ts';
import type { CallRouting, ConsoleApi, IncomingTransfer, OpenCallRoom } from '../api/consoleApi.ts';
import { MediaSession, type DeviceChoice, type RemoteFeed } from '../media/mediaSession.ts';
import { getLocalMedia } from '../media/devices.ts';
import { MEDIA_LOST, watchMediaHealth, type MediaNotice } from '../media/mediaHealth.ts';
import { XmppSession, type ChatMessage, type RoomPresence } from '../xmpp/session.ts';
import {
  chatOpened,
  chatReceived,
  initialCallStatus,
  isScreenDisplay,
  mutedChanged,
  remoteScreensChanged,
  screenShareChanged,
  fileKind,
  type CallStatus,
} from '../state/callStatus.ts';
import { uploadTypeOf } from '../api/http.ts';
import { recordingFilename } from '../guest/recording.ts';

export interface QueueEntry {
  room: string;
  nick: string;
  guestJid: string | null;
  callId: string;
  target: string;
  appointmentID: string;
  assignmentId: number | null;
  assignmentName: string | null;
  /** epoch ms when this agent first saw the call open */
  since: number;
  /** the raw presence the agent received, kept for audits and tests */
  statusText: string;
  lobby: Partial<LobbyPresenceElement> | null;
  callType: 'video' | 'voice';
  /** round robin: offered to this agent until this epoch ms (null: not an offer, anyone may answer) */
  offerExpiresAt: number | null;
}

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
   * The active call's status with the names of SPEC.md §3 (chatMessages newest first, unreadMessages,
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
}

export interface AgentDeskOptions {
  api: ConsoleApi;
  /** the agent's name from its console account, announced to guests in room presence */
  displayName?: string;
  xmppWsUrl: string;
  janusServers: string[];
  videoConstraints?: MediaTrackConstraints;
  /** the console user's company (uploads, recording paths) */
  companyId?: number;
  /** recordings root on the Janus host when the company records calls (SPEC.md §7 shape below it) */
  recordingRoot?: () => string | null;
}

export class AgentDesk extends Emitter<{ change: AgentSnapshot }> {
  readonly #options: AgentDeskOptions;
  #xmpp: XmppSession | null = null;
  #media: MediaSession | null = null;
  #nick = '';
  #rooms = new Map<string, OpenCallRoom>();
  /** round robin: the latest routing of each call (callId → routing) */
  #routing = new Map<string, CallRouting>();
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
  };

  constructor(options: AgentDeskOptions) {
    super();
    this.#options = options;
  }

  get snapshot(): AgentSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<AgentSnapshot>): void {
    const wasBusy = this.#snapshot.activeCall !== null;
    this.#snapshot = { ...this.#snapshot, ...patch };
    if ((this.#snapshot.activeCall !== null) !== wasBusy) this.#tellAvailability();
    this.emit('change', this.#snapshot);
  }

  async start(): Promise<void> {
    this.#set({ phase: 'connecting', error: null });
    const token = await this.#options.api.xmppToken();
    const xmpp = new XmppSession({
      wsUrl: this.#options.xmppWsUrl,
      jid: token.jid,
      credential: token.credential,
      // each console tab is its own resource, so two tabs never kick each other
      resource: `console-${Math.random().toString(36).slice(2, 10)}`,
    });
    this.#xmpp = xmpp;
    this.#nick = token.jid.split('@')[0] ?? token.jid;
    xmpp.on('roomPresence', (presence) => this.#onPresence(presence));
    xmpp.on('control', (control) => {
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
    xmpp.on('disconnected', () => this.#set({ phase: 'offline' }));
    await xmpp.connect();
    this.#set({ phase: 'idle', jid: token.jid });
    this.#unsubscribe = this.#options.api.onCallOpened(
      (room) => void this.#joinRoom(room),
      (routing) => this.#onRouting(routing),
      (live) => this.#set({ live }),
      {
        onTransfer: (transfer) => this.#onTransfer(transfer),
        onTransferAccepted: (accepted) => this.#onTransferAccepted(accepted),
      },
    );
    this.#tellAvailability();
    for (const room of await this.#options.api.rooms()) {
      if (room.routing) this.#storeRouting(room.routing);
      await this.#joinRoom(room);
    }
    this.#set({ queue: this.#computeQueue() });
  }

  /**
   * Keeps a call's routing with the offer's end on this browser's clock: never later than the offer's
   * length from now, so a clock ahead of or behind the server's never shows more than the offer time.
   */
  #storeRouting(routing: CallRouting): void {
    const serverEnd = routing.expiresAt ? Date.parse(routing.expiresAt) : null;
    const localEnd =
      serverEnd !== null && routing.offerSeconds ? Math.min(serverEnd, Date.now() + routing.offerSeconds * 1000) : serverEnd;
    this.#routing.set(routing.callId, { ...routing, expiresAt: localEnd === null ? null : new Date(localEnd).toISOString() });
  }

  #onRouting(routing: CallRouting): void {
    this.#storeRouting(routing);
    this.#set({ queue: this.#computeQueue() });
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

  #handOverIfArrived(): void {
    const to = this.#handOverTo;
    if (to && this.#snapshot.remoteFeeds.some((f) => f.display === to)) {
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
    this.#set({
      transfers: this.#snapshot.transfers.filter((t) => t.id !== id),
      phase: 'joining',
      activeCall: {
        callId: taken.callId,
        room: taken.room,
        guestNick: taken.guestUsername,
        startedAt: Date.now(),
        callType,
        guestStatus: guest?.statusText ?? '',
      },
      error: null,
      lastEnded: null,
      status: { ...initialCallStatus(), callStarted: true },
      localScreen: null,
    });
    try {
      await this.#joinMedia(taken.callId, callType === 'video', taken.guestUsername, xmpp);
    } catch (error) {
      await this.#leaveCall('error');
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Declines a call round robin offers us: it moves to the next available agent. */
  async decline(callId: string): Promise<void> {
    if (!this.#options.api.decline) throw new Error('declining is not available');
    await this.#options.api.decline(callId);
  }

  async #joinRoom(room: OpenCallRoom): Promise<void> {
    const xmpp = this.#xmpp;
    if (!xmpp) return;
    const known = this.#rooms.has(room.room);
    this.#rooms.set(room.room, room);
    if (known) return;
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
    if (presence.available) this.#presence.set(key, presence);
    else this.#presence.delete(key);
    const active = this.#snapshot.activeCall;
    if (active && active.room === presence.room && presence.nick !== this.#nick) {
      const jid = presence.jid ? presence.jid.split('/')[0]! : presence.nick;
      const audio = presence.available && !!presence.lobby?.audioMuted;
      const video = presence.available && !!presence.lobby?.videoMuted;
      this.#setStatus((s) => mutedChanged(mutedChanged(s, jid, 'audio', audio), jid, 'video', video));
    }
    if (active && active.room === presence.room && active.guestNick === presence.nick) {
      if (presence.available) this.#set({ activeCall: { ...active, guestStatus: presence.statusText } });
      else void this.#leaveCall('guest');
      const info = presence.info;
      if (presence.available && info.status === 'CallResumed' && info.callId && info.callId !== active.callId)
        this.#followResumed(info.callId);
    }
    this.#set({ queue: this.#computeQueue(), runningCalls: this.#computeQueue('InCall') });
  }

  /** SPEC.md §4: members whose status is OpenCall are in an open call; everyone else is removed. */
  #computeQueue(wanted: 'OpenCall' | 'InCall' = 'OpenCall'): QueueEntry[] {
    const previous = new Map(
      (wanted === 'OpenCall' ? this.#snapshot.queue : this.#snapshot.runningCalls).map((e) => [e.callId, e]),
    );
    const entries: QueueEntry[] = [];
    for (const presence of this.#presence.values()) {
      const info: PresenceInfo = presence.info;
      if (info.status !== wanted || !info.callId) continue;
      if (presence.lobby?.userType && presence.lobby.userType !== 'guest') continue;
      if (wanted === 'OpenCall' && !targetsMe(info.target, this.#nick)) continue;
      const routing = this.#routing.get(info.callId);
      const offeredToMe = routing?.state === 'offered' && routing.offeredTo?.toLowerCase() === this.#nick.toLowerCase();
      // round robin: a call offered to another agent is not ours to list until it is open to all
      if (wanted === 'OpenCall' && routing?.state === 'offered' && !offeredToMe) continue;
      const room = this.#rooms.get(presence.room);
      entries.push({
        room: presence.room,
        nick: presence.nick,
        guestJid: presence.jid,
        callId: info.callId,
        target: info.target,
        appointmentID: presence.lobby?.appointmentID ?? '',
        assignmentId: room?.assignmentId ?? null,
        assignmentName: room?.assignmentName ?? null,
        since: previous.get(info.callId)?.since ?? Date.now(),
        statusText: presence.statusText,
        lobby: presence.lobby,
        callType: presence.lobby?.callType === 'voice' ? 'voice' : 'video',
        offerExpiresAt: offeredToMe && routing?.expiresAt ? Date.parse(routing.expiresAt) : null,
      });
    }
    return entries.sort((a, b) => a.since - b.since);
  }

  /** Answers a waiting guest: joins the call's media room and publishes camera and microphone. */
  async answer(callId: string, options: { video?: boolean } = {}): Promise<void> {
    const entry = this.#snapshot.queue.find((e) => e.callId === callId);
    const xmpp = this.#xmpp;
    if (!entry || !xmpp) throw new Error('no such waiting call');
    if (this.#snapshot.activeCall) throw new Error('already in a call');
    const activeCall: ActiveCall = {
      callId,
      room: entry.room,
      guestNick: entry.nick,
      startedAt: Date.now(),
      callType: entry.callType,
      guestStatus: entry.statusText,
    };
    this.#set({
      phase: 'joining',
      activeCall,
      error: null,
      lastEnded: null,
      status: { ...initialCallStatus(), callStarted: true },
      localScreen: null,
    });
    // the guest may have muted before we answered: its latest presence says so
    const guestPresence = this.#presence.get(`${entry.room}/${entry.nick}`);
    if (guestPresence) this.#onPresence(guestPresence);
    try {
      await this.#joinMedia(callId, options.video ?? entry.callType === 'video', entry.nick, xmpp);
    } catch (error) {
      await this.#leaveCall('error');
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Joins a call's Janus room (pin in lowercase) and publishes camera and microphone. */
  async #joinMedia(callId: string, video: boolean, guestNick: string, xmpp: XmppSession): Promise<void> {
    {
      // The camera starts while the media session is set up and joined (as a bare janus.js client
      // does): the subscription to the guest begins at join and need not wait for our own devices.
      const gum = getLocalMedia({
        // a voice call stays a voice call on both sides
        video,
        ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
      });
      gum.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      // the call's room, its pin and our Janus token come from the server (docs/protocol.md "Media room")
      const grant = await this.#options.api.mediaGrant(callId);
      const media = new MediaSession({ servers: this.#options.janusServers, iceServers: xmpp.iceServers, token: grant.token });
      this.#media = media;
      media.on('remoteFeed', (feed) => {
        if (this.#media !== media) return;
        const remoteFeeds = [...this.#snapshot.remoteFeeds.filter((f) => f.feedId !== feed.feedId), feed];
        this.#set({
          remoteFeeds,
          status: remoteScreensChanged(this.#snapshot.status, countScreens(remoteFeeds)),
        });
        this.#handOverIfArrived();
      });
      media.on('remoteFeedRemoved', ({ feedId }) => {
        if (this.#media !== media) return;
        const remoteFeeds = this.#snapshot.remoteFeeds.filter((f) => f.feedId !== feedId);
        this.#set({
          remoteFeeds,
          status: remoteScreensChanged(this.#snapshot.status, countScreens(remoteFeeds)),
        });
      });
      media.on('screenEnded', () =>
        this.#set({ localScreen: null, status: screenShareChanged(this.#snapshot.status, false) }),
      );
      media.on('publisherLeft', ({ display }) => {
        if (this.#media === media && display === guestNick) void this.#leaveCall('guest');
      });
      media.on('destroyed', () => {
        if (this.#media === media) void this.#leaveCall('guest');
      });
      await this.#watchMediaHealth(media).connect();
      await media.attachPublisher();
      const bareJid = this.#snapshot.jid ?? this.#nick;
      await media.join({ room: grant.room, pin: grant.pin }, bareJid);
      const localStream = await gum;
      if (this.#media !== media) {
        for (const track of localStream.getTracks()) track.stop(); // the call ended meanwhile
        return;
      }
      this.#set({ localStream });
      const recordFilename = this.#recordFilename(callId);
      await media.publish({
        stream: localStream,
        audio: true,
        video: localStream.getVideoTracks().length > 0,
        ...(recordFilename ? { recordFilename } : {}),
      });
      if (this.#activeCallId() === callId) this.#set({ phase: 'inCall' });
    }
  }

  /**
   * Holds the call (agent-initiated, SPEC.md §4 "Holding"): tells the guest, leaves the media room and
   * stops our camera; the guest shows its hold page. The call stays ours (activeCall.held).
   */
  async hold(): Promise<void> {
    const active = this.#snapshot.activeCall;
    const xmpp = this.#xmpp;
    if (!active || active.held || !xmpp) return;
    const media = this.#media;
    this.#media = null; // its events no longer concern the call
    this.#set({ activeCall: { ...active, held: true }, remoteFeeds: [], localScreen: null });
    this.#setStatus((s) => ({
      ...s,
      peerCall: 'Paused',
      OnHoldCount: s.OnHoldCount + 1,
      isZoomed: false,
      screenShare: false,
    }));
    xmpp.sendControl(active.room, { action: 'hold', callId: active.callId });
    const localStream = this.#snapshot.localStream;
    this.#holding = (async () => {
      await media?.close();
      for (const track of localStream?.getTracks() ?? []) track.stop();
      if (this.#snapshot.localStream === localStream) this.#set({ localStream: null });
    })();
    this.#set({ muted: { audio: false, video: false } });
    await this.#holding;
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
  /** the hold's media teardown, which following the guest into the new room waits for */
  #holding: Promise<void> = Promise.resolve();

  #followResumed(newCallId: string): void {
    const active = this.#snapshot.activeCall;
    const xmpp = this.#xmpp;
    if (!active?.held || !this.#resuming || !xmpp) return;
    this.#resuming = false;
    this.#set({
      phase: 'joining',
      activeCall: { ...active, callId: newCallId, held: false, startedAt: Date.now() },
    });
    this.#setStatus((s) => ({ ...s, peerCall: 'Resumed' }));
    this.#holding
      .then(() => this.#joinMedia(newCallId, active.callType === 'video', active.guestNick, xmpp))
      .catch(async (error: unknown) => {
        await this.#leaveCall('error');
        this.#set({ error: error instanceof Error ? error.message : String(error) });
      });
  }

  #setStatus(update: (status: CallStatus) => CallStatus): void {
    this.#set({ status: update(this.#snapshot.status) });
  }

  #recordFilename(callId: string, screen = false): string | undefined {
    const root = this.#options.recordingRoot?.();
    if (!root || this.#options.companyId === undefined) return undefined;
    return recordingFilename({
      root,
      companyId: this.#options.companyId,
      callId,
      username: this.#nick,
      role: 'agent',
      screen,
    });
  }

  /** Chat in the active call's room (newest first; unread while the chat is closed). */
  #onChat(message: ChatMessage): void {
    const active = this.#snapshot.activeCall;
    if (!active || message.room !== active.room || message.delayed) return;
    const mine = message.nick === this.#nick;
    const occupant = this.#presence.get(`${message.room}/${message.nick}`);
    this.#setStatus((s) =>
      chatReceived(s, {
        id: message.id ?? `${message.from}-${message.at}`,
        from: mine ? (this.#snapshot.jid ?? message.nick) : (occupant?.jid?.split('/')[0] ?? message.nick),
        nick: message.nick,
        body: message.body,
        at: message.at,
        mine,
        ...(message.file
          ? { file: { ...message.file, kind: fileKind(message.file.name, message.file.url) } }
          : {}),
      }),
    );
  }

  sendChat(body: string): void {
    const active = this.#snapshot.activeCall;
    const text = body.trim();
    if (!active || !text || !this.#xmpp?.connected) return;
    this.#xmpp.sendChat(active.room, { body: text });
  }

  async sendFile(file: Blob & { name?: string }): Promise<void> {
    const active = this.#snapshot.activeCall;
    const { api, companyId } = this.#options;
    if (!active || !this.#xmpp?.connected) throw new Error('not in a call');
    if (!api.upload || companyId === undefined) throw new Error('uploads are not available');
    const url = await api.upload(uploadTypeOf(file), file, companyId, guestUsernameOf(active.callId));
    const name = file.name ?? 'file';
    this.#xmpp.sendChat(active.room, { body: name, file: { url, name } });
  }

  setChatOpen(open: boolean): void {
    this.#setStatus((s) => chatOpened(s, open));
  }

  setZoomed(zoomed: boolean): void {
    this.#setStatus((s) => ({ ...s, isZoomed: zoomed }));
  }

  /** Shares the agent's screen as `{jid}-screen` in the call's room. */
  async startScreenShare(): Promise<void> {
    const media = this.#media;
    const callId = this.#activeCallId();
    if (!media || !callId || media.sharingScreen) return;
    const display = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const track = display.getVideoTracks()[0];
    if (!track) throw new Error('no screen track');
    this.#set({ localScreen: display, status: screenShareChanged(this.#snapshot.status, true) });
    try {
      await media.startScreenShare(track, this.#recordFilename(callId, true));
    } catch (error) {
      for (const t of display.getTracks()) t.stop();
      await media.stopScreenShare().catch(() => undefined);
      this.#set({ localScreen: null, status: screenShareChanged(this.#snapshot.status, false) });
      throw error;
    }
  }

  async stopScreenShare(): Promise<void> {
    await this.#media?.stopScreenShare();
    this.#set({ localScreen: null, status: screenShareChanged(this.#snapshot.status, false) });
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
    this.#set({
      phase: 'joining',
      activeCall: {
        callId,
        room: entry.room,
        guestNick: entry.nick,
        startedAt: Date.now(),
        callType: entry.callType,
        guestStatus: entry.statusText,
        joined: true,
      },
      error: null,
      lastEnded: null,
      status: { ...initialCallStatus(), callStarted: true },
      localScreen: null,
    });
    try {
      await this.#joinMedia(callId, entry.callType === 'video', entry.nick, xmpp);
    } catch (error) {
      await this.#leaveCall('error');
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  // ---- resilience (issue 12): the media server waited for, reconnected to, or lost -------------------
  /** Janus lost the call's session (restarted or crashed): the call ends with MEDIA_LOST as its error. */
  #watchMediaHealth(media: MediaSession): { connect: () => Promise<void> } {
    return watchMediaHealth(media, {
      current: () => this.#media === media,
      notice: (mediaNotice) => this.#set({ mediaNotice }),
      onLost: () => void this.#leaveCall('error').then(() => this.#set({ error: MEDIA_LOST })),
    });
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
    const media = this.#media;
    this.#media = null;
    // Everything of this call is taken now: closing the media session below takes a while (up to the
    // gateway's destroy timeout), and the agent may answer the next call meanwhile, whose camera and
    // state must not be touched by this call's teardown.
    const { localStream, localScreen } = this.#snapshot;
    const wasMuted = this.#snapshot.muted.audio || this.#snapshot.muted.video;
    this.#set({
      phase: this.#xmpp?.connected ? 'idle' : 'offline',
      mediaNotice: null,
      activeCall: null,
      remoteFeeds: [],
      lastEnded: { callId: active.callId, reason },
      localStream: null,
      localScreen: null,
      muted: { audio: false, video: false },
    });
    if (wasMuted) this.#sendMuteState(active.room);
    await media?.close();
    for (const track of localStream?.getTracks() ?? []) track.stop();
    for (const track of localScreen?.getTracks() ?? []) track.stop();
  }

  /**
   * Changes camera and/or microphone during the call without dropping it (SPEC.md §3
   * deviceConfigChanged), or flips between the front and the back camera (isBackCam).
   */
  async changeDevices(choice: DeviceChoice): Promise<void> {
    const media = this.#media;
    if (!media) throw new Error('not in a call');
    let changed: boolean;
    try {
      changed = await media.changeDevices(choice, {
        video: (this.#snapshot.activeCall?.callType ?? 'video') === 'video',
        ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
      });
    } catch (error) {
      // a refused camera: the previous one is published again, with new tracks
      this.#set({ localStream: media.localStream });
      throw error;
    }
    if (!changed) return;
    this.#set({
      localStream: media.localStream,
      status: {
        ...this.#snapshot.status,
        deviceConfigChanged: true,
        ...(choice.backCam !== undefined ? { isBackCam: choice.backCam } : {}),
      },
    });
  }

  /** The device settings panel (SPEC.md §3 deviceConfigOpen). */
  setDeviceConfigOpen(open: boolean): void {
    this.#setStatus((s) => ({ ...s, deviceConfigOpen: open }));
  }

  /** Volume of the others' audio, 0–1 (SPEC.md §3 callVolume, default 1). */
  setCallVolume(volume: number): void {
    const v = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
    this.#setStatus((s) => ({ ...s, callVolume: v }));
  }

  /** The participant shown large (SPEC.md §3 mainUser). */
  setMainUser(jid: string): void {
    this.#setStatus((s) => ({ ...s, mainUser: jid }));
  }

  /** Mutes our microphone or camera and tells the call's room through our presence there. */
  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    void this.#media?.setMuted(kind, muted).catch(() => undefined);
    this.#set({ muted: { ...this.#snapshot.muted, [kind]: muted } });
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

  /** The agent's presence element in a guest's room: its name goes with it (docs/protocol.md). */
  #lobbyElement(): LobbyPresenceElement {
    const name = presenceName(this.#options.displayName);
    return { userType: 'agent', appointmentID: '', ...(name ? { name } : {}) };
  }

  peerConnections() {
    return this.#media?.peerConnections() ?? {};
  }

  async stop(): Promise<void> {
    await this.hangup();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#xmpp?.disconnect();
    this.#xmpp = null;
    this.#set({ phase: 'offline', queue: [], live: false });
  }
}

/**
 * A waiting guest's target (docs/protocol.md): empty or roundRobin = any agent of the room; otherwise the
 * appointment agent's lowercase username, and only that agent lists the call (the others may share the
 * guest's room from an earlier call).
 */
export function targetsMe(target: string, nick: string): boolean {
  if (!target || target === 'roundRobin') return true;
  return target.toLowerCase() === nick.toLowerCase();
}

function countScreens(feeds: RemoteFeed[]): number {
  return feeds.filter((f) => isScreenDisplay(f.display)).length;
}
