/**
 * The agent's side (the console), framework-free.
 *
 *   start()    XMPP token → session → join the rooms of open calls (and of each new one, live)
 *   queue      guests whose room presence says OpenCall, oldest first
 *   answer()   join the call's Janus room (pin in lowercase) and publish; the guest subscribes
 *   hangup()   end control to the room, leave the media room
 *
 * The desk composes its features, each a module with the ports it needs handed in: the call room
 * (room/callRoom.ts), the rooms it follows with its queue and round robin's routing (roomFollowing.ts),
 * transfers (transfers.ts), its availability for round robin (availability.ts), the standby hand-over
 * (mediaWarmup.ts), entering and leaving a call's media (deskCallMedia.ts, joined by mediaJoin.ts), hold
 * and resume (holdResume.ts), the
 * streams coming back (reconnection.ts) and the guest changing page on the website (guestPageChange.ts).
 */
import { guestUsernameOf } from '../callId.ts';
import { InCallEngine } from '../room/inCallEngine.ts';
import { presenceImageUrl, presenceName, type LobbyPresenceElement } from '../presence.ts';
import type { OpenCallRoom } from '../api/consoleApi.ts';
import type { ChatMessage, RoomPresence } from '../xmpp/session.ts';
import { CallRoom } from '../room/callRoom.ts';
import { defaultPorts } from '../composition.ts';
import type { CallPorts } from '../ports/callPorts.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { RoomFollowing } from './roomFollowing.ts';
import type { RoomSelfPing } from '../room/roomSelfPing.ts';
import { deskSelfPing } from './deskSelfPing.ts';
import { Transfers } from './transfers.ts';
import { Availability } from './availability.ts';
import { MediaWarmup } from './mediaWarmup.ts';
import { Reconnection } from './reconnection.ts';
import { DeskCallMedia } from './deskCallMedia.ts';
import { DeskHold } from './holdResume.ts';
import { GuestPageChange } from './guestPageChange.ts';
import { initialAgentSnapshot, type AgentDeskOptions, type AgentSnapshot } from './deskSnapshot.ts';

export { targetsMe, type QueueEntry } from './waitingQueue.ts';

export type { ActiveCall, AgentDeskOptions, AgentPhase, AgentSnapshot } from './deskSnapshot.ts';

export class AgentDesk extends InCallEngine<{ change: AgentSnapshot }> {
  readonly #options: AgentDeskOptions;
  /** the desk's ports, handed to each feature (src/room/ports.ts) */
  readonly #ports: CallPorts;
  /** the call whose guest said its page is being replaced (presence Navigating) */
  #guestNavigating: string | null = null;
  #xmpp: SignallingPort | null = null;
  /** the picture chosen since the start (setProfileImageUrl; null: none); undefined: the options' */
  #profileImageUrl: string | null | undefined = undefined;
  /** the in-call core (media, feeds, mute, devices, screen, chat, hold and end teardown) */
  protected readonly inCall: CallRoom;
  #nick = '';
  #unsubscribe: (() => void) | null = null;
  readonly #following: RoomFollowing;
  /** whether we are still in our rooms, their ejabberd node alive (room/roomSelfPing.ts) */
  readonly #selfPing: RoomSelfPing;
  readonly #transfers: Transfers;
  readonly #availability: Availability;
  readonly #warmup: MediaWarmup;
  readonly #reconnection: Reconnection;
  readonly #hold: DeskHold;
  readonly #callMedia: DeskCallMedia;
  readonly #pageChange = new GuestPageChange();
  #snapshot: AgentSnapshot = initialAgentSnapshot();

  constructor(options: AgentDeskOptions) {
    super();
    this.#options = options;
    const ports = defaultPorts(options.ports);
    this.#ports = ports;
    this.inCall = new CallRoom({
      ports,
      room: () => this.#snapshot.activeCall?.room ?? null,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      signalling: () => this.#xmpp,
      videoConstraints: options.videoConstraints,
      lineSteps: options.lineSteps,
      noiseSuppression: options.noiseSuppression ?? true,
      lineStepChanged: () => {
        const active = this.#snapshot.activeCall;
        if (active) this.#sendMuteState(active.room);
      },
    });
    const { api } = options;
    this.#following = new RoomFollowing({
      api,
      signalling: () => this.#xmpp,
      clock: ports.clock,
      nick: () => this.#nick,
      lobbyElement: () => this.#lobbyElement(),
      read: () => this.#snapshot,
      write: (lists) => this.#set(lists),
      failed: (error) => this.#set({ error }),
      keptRooms: () => {
        const active = this.#snapshot.activeCall;
        const kept: OpenCallRoom[] = active
          ? [this.#following.known(active.room) ?? { room: active.room, assignmentId: 0, guestUsername: active.guestNick, callId: active.callId }]
          : [];
        for (const t of this.#snapshot.transfers) kept.push({ room: t.room, assignmentId: 0, guestUsername: t.guestUsername, callId: t.callId });
        return kept;
      },
      rejoinStarts: (after) => {
        if (after === 'signalling' && this.#snapshot.phase === 'offline') this.#set({ phase: 'idle' });
      },
      rejoined: (after) => {
        const call = this.#snapshot.activeCall;
        if (after === 'signalling' && call && !this.#following.presenceOf(call.room, call.guestNick)) this.#reconnection.awaitGuest(call);
      },
    });
    this.#selfPing = deskSelfPing({
      signalling: () => this.#xmpp,
      clock: ports.clock,
      nick: () => this.#nick,
      callRoom: () => this.#snapshot.activeCall?.room ?? null,
      following: this.#following,
      lost: (rooms) => this.inCall.chat.roomsLost(rooms),
    });
    this.#transfers = new Transfers({
      api,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      joinRoom: (room) => this.#following.join(room),
      presenceOf: (room, nick) => this.#following.presenceOf(room, nick),
      handedOver: () => void this.#callMedia.leave('transferred'),
      enter: async (call) => {
        if (!this.#xmpp) throw new Error('no such transfer');
        await this.#callMedia.enter(call, call.callType === 'video', this.#xmpp);
      },
    });
    this.#availability = new Availability(api, () => this.#snapshot.phase !== 'offline');
    this.#warmup = new MediaWarmup({
      ports,
      api,
      janusServers: options.janusServers,
      signalling: () => this.#xmpp,
      wanted: () => this.#snapshot.phase === 'idle' && this.#snapshot.queue.length > 0,
      ready: (ready) => {
        if (this.#snapshot.mediaReady !== ready) this.#set({ mediaReady: ready });
      },
    });
    this.#reconnection = new Reconnection({
      clock: ports.clock,
      live: () => this.#snapshot.live,
      setLive: (live) => this.#set({ live }),
      rejoinRooms: () => void this.#following.rejoin('events'),
      activeCallId: () => this.#activeCallId(),
      signallingConnected: () => !!this.#xmpp?.connected,
      guestInRoom: (call) => !!this.#following.presenceOf(call.room, call.guestNick),
      guestGone: () => void this.#callMedia.leave('guest'),
    });
    this.#hold = new DeskHold({
      clock: ports.clock,
      room: this.inCall,
      signalling: () => this.#xmpp,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      joinMedia: (callId, video, guestNick, xmpp) => this.#callMedia.join(callId, video, guestNick, xmpp),
      failed: async (error) => {
        await this.#callMedia.leave('error');
        this.#set({ error: error instanceof Error ? error.message : String(error) });
      },
    });
    this.#callMedia = new DeskCallMedia({
      ports,
      options,
      room: this.inCall,
      nick: () => this.#nick,
      signalling: () => this.#xmpp,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      presenceOf: (room, nick) => this.#following.presenceOf(room, nick),
      guestNavigating: () => this.#guestNavigating,
      guestPageGone: () => {
        this.#pageChange.pageGoing(this.#snapshot, true);
        this.#set({});
      },
      feedAdded: () => this.#transfers.handOverIfArrived(),
      leaving: (reason) => {
        if (reason !== 'transferred') this.#transfers.cancelHandOver();
      },
      unmuted: (room) => this.#sendMuteState(room),
    });
  }

  get snapshot(): AgentSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<AgentSnapshot>): void {
    const wasBusy = this.#snapshot.activeCall !== null;
    const next = { ...this.#snapshot, ...patch };
    this.#snapshot = { ...next, guestChangingPage: this.#pageChange.changing(next) };
    if ((this.#snapshot.activeCall !== null) !== wasBusy) this.#availability.tell(this.#snapshot.activeCall !== null);
    // calls wait and we are free: the media connection (and a standby session) are made now, off the answer's path
    this.#warmup.update();
    this.emit('change', this.#snapshot);
  }

  async start(): Promise<void> {
    this.#set({ phase: 'connecting', error: null });
    const { api } = this.#options;
    const token = await api.xmppToken();
    const xmpp = this.#ports.signalling({
      wsUrl: this.#options.xmppWsUrl,
      jid: token.jid,
      credential: token.credential,
      // each console tab is its own resource, so two tabs never kick each other
      resource: `console-${Math.random().toString(36).slice(2, 10)}`,
      // a reconnection hours later needs a credential that has not expired
      refreshCredential: async () => (await api.xmppToken()).credential,
    });
    this.#xmpp = xmpp;
    this.#nick = token.jid.split('@')[0] ?? token.jid;
    xmpp.on('roomPresence', (presence) => this.#onPresence(presence));
    xmpp.on('control', (control) => {
      // p2p: an agent's answer (a transfer's taker is ready for the guest's Jingle session)
      if (control.action === 'answer' && control.peer) this.#transfers.onAnswer(control.callId, control.peer);
      // a guest who hangs up leaves the queue at once, a widget panel's guest too (not a page change)
      if (control.action === 'end') this.#following.ended(control.callId);
      const active = this.#snapshot.activeCall;
      if (control.action === 'end' && active && control.callId === active.callId && !control.from.endsWith(`/${this.#nick}`))
        void this.#callMedia.leave('guest');
    });
    xmpp.on('chat', (message) => this.#onChat(message));
    // a call's media does not depend on the XMPP stream: the call goes on while it reconnects
    xmpp.on('disconnected', () => {
      this.inCall.chat.streamLost();
      if (!this.#snapshot.activeCall) this.#set({ phase: 'offline' });
    });
    // then asks at once whether the rooms it joined are the ones it thinks (a node may have died meanwhile)
    xmpp.on('reconnected', () => void this.#following.rejoin('signalling').then(() => this.#selfPing.checkNow()));
    await xmpp.connect();
    this.#set({ phase: 'idle', jid: token.jid });
    this.#unsubscribe = api.onCallOpened(
      (room) => void this.#following.join(room),
      (routing) => this.#following.onRouting(routing),
      (live) => this.#reconnection.onLive(live),
      {
        onTransfer: (transfer) => this.#transfers.onTransfer(transfer),
        onTransferAccepted: (accepted) => this.#transfers.onTransferAccepted(accepted),
      },
      // calls opened on another server instance may have gone unannounced (docs/architecture.md "Shared state")
      () => void this.#following.rejoin('events'),
    );
    this.#availability.tell(this.#snapshot.activeCall !== null);
    await this.#following.start();
    this.#selfPing.start();
  }

  /** Round robin offers calls only to available agents who are not in a call. */
  setAway(away: boolean): void {
    this.#availability.setAway(away, this.#snapshot.activeCall !== null);
  }

  /** Who could take our call now (agents available, and the assignments). */
  transferTargets() {
    return this.#transfers.targets();
  }

  /** Hands our call to an agent or an assignment's agents; we stay until the new agent is in the call. */
  transfer(to: { toUserId: number } | { assignmentId: number }): Promise<void> {
    return this.#transfers.transfer(to);
  }

  /** Takes a call handed to us: we become its agent and join its media room; the guest stays in it. */
  async acceptTransfer(id: number): Promise<void> {
    if (!this.#xmpp) throw new Error('no such transfer');
    await this.#transfers.accept(id);
  }

  /** Declines a call round robin offers us: it moves to the next available agent. */
  async decline(callId: string): Promise<void> {
    if (!this.#options.api.decline) throw new Error('declining is not available');
    await this.#options.api.decline(callId);
  }

  #onPresence(presence: RoomPresence): void {
    // our own presence: we are in that room (again), and the chat it did not echo goes again
    if (presence.self) return presence.available ? this.inCall.chat.roomJoined(presence.room) : undefined;
    this.#following.onPresence(presence);
    // a waiting guest's presence comes before its call is ours: every room's guest is followed
    if (presence.lobby?.userType === 'guest') this.inCall.chat.otherSidePresence(presence);
    const active = this.#snapshot.activeCall;
    if (active && active.room === presence.room && presence.nick !== this.#nick) this.inCall.presenceMuted(presence);
    if (active && active.room === presence.room && active.guestNick === presence.nick) {
      // the guest's page goes, and the website's next page brings the call back (docs/widget.md); a join
      // without a status (the next page's first presence) changes nothing yet
      // a guest in the widget's panel whose page goes is changing page too, its Navigating lost or not
      if (presence.available && presence.info.status)
        this.#guestNavigating = presence.info.status === 'Navigating' || presence.lobby?.pageChanges ? active.callId : null;
      if (presence.available) this.#set({ activeCall: { ...active, guestStatus: presence.statusText } });
      else this.#reconnection.awaitGuest(active, this.#guestNavigating === active.callId);
      this.#pageChange.onPresence(this.#snapshot, presence, this.#guestNavigating === active.callId);
      if (this.#pageChange.changing(this.#snapshot) !== this.#snapshot.guestChangingPage) this.#set({});
      const info = presence.info;
      if (presence.available && info.status === 'CallResumed' && info.callId && info.callId !== active.callId)
        this.#hold.followResumed(info.callId);
    }
    // only this occupant's entry can change (waitingQueue.ts); nothing listed changed: no re-render
    this.#following.relist(presence);
  }

  /** Answers a waiting guest: joins the call's media room and publishes camera and microphone. */
  async answer(callId: string, options: { video?: boolean } = {}): Promise<void> {
    const entry = this.#snapshot.queue.find((e) => e.callId === callId);
    const xmpp = this.#xmpp;
    if (!entry || !xmpp) throw new Error('no such waiting call');
    if (this.#snapshot.activeCall) throw new Error('already in a call');
    const activeCall = { callId, room: entry.room, guestNick: entry.nick, callType: entry.callType, guestStatus: entry.statusText };
    await this.#callMedia.enter(activeCall, options.video ?? entry.callType === 'video', xmpp, () => {
      // the guest may have muted before we answered: its latest presence says so
      const guestPresence = this.#following.presenceOf(entry.room, entry.nick);
      if (guestPresence) this.#onPresence(guestPresence);
    });
  }

  /**
   * Holds the call (by the agent; docs/protocol.md "Hold and resume"): tells the guest, leaves the room and
   * stops our camera; the guest shows its hold page. The call stays ours (activeCall.held).
   */
  hold(): Promise<void> {
    return this.#hold.hold();
  }

  /**
   * Resumes a held call: the guest moves to a new call id (linked by POST /call-report/hold-call) and
   * announces CallResumed|agent|newCallId once it has published there; we follow into that room.
   */
  resume(): void {
    this.#hold.resume();
  }

  /** Chat in the active call's room (newest first; unread while the chat is closed). */
  #onChat(message: ChatMessage): void {
    const active = this.#snapshot.activeCall;
    if (!active || message.room !== active.room || message.delayed) return;
    const mine = message.nick === this.#nick;
    const occupant = this.#following.presenceOf(message.room, message.nick);
    const from = mine ? (this.#snapshot.jid ?? message.nick) : (occupant?.jid?.split('/')[0] ?? message.nick);
    this.inCall.chat.receive(message, mine, from);
  }

  async sendFile(file: Blob & { name?: string }): Promise<void> {
    const active = this.#snapshot.activeCall;
    const { api, companyId } = this.#options;
    if (!active || !this.#xmpp?.connected) throw new Error('not in a call');
    if (!api.upload || companyId === undefined) throw new Error('uploads are not available');
    await this.inCall.chat.sendFile(file, (type, blob) => api.upload!(type, blob, companyId, guestUsernameOf(active.callId)));
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
    await this.#callMedia.enter(call, entry.callType === 'video', xmpp);
  }

  /** Read through a method: TypeScript would keep an earlier narrowing of the snapshot field. */
  #activeCallId(): string | null {
    return this.#snapshot.activeCall?.callId ?? null;
  }

  async hangup(): Promise<void> {
    const active = this.#snapshot.activeCall;
    if (!active) return;
    if (!active.joined) this.#xmpp?.sendControl(active.room, { action: 'end', callId: active.callId });
    await this.#callMedia.leave('agent');
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
      ...(this.#snapshot.status.lineStep !== 'full' ? { lineStep: this.#snapshot.status.lineStep } : {}),
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
    for (const room of new Set([...this.#following.rooms(), ...(active ? [active] : [])])) {
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
    this.#selfPing.stop();
    await this.hangup();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#xmpp?.disconnect();
    this.#xmpp = null;
    this.#warmup.cool();
    this.#set({ phase: 'offline', queue: [], live: false, mediaReady: false });
  }
}
