/**
 * The guest's side of a call (docs/protocol.md), framework-free: the guest app renders its snapshots.
 *
 *   prepare()  register → XMPP session start (roster, presence, ICE servers, carbons) → join own room
 *   call()     camera → report add (ok | outOfQuota | blocked) → Janus room → publish → OpenCall|target|callId
 *   (agent)    first remote stream → peer call Resumed → InCall|agentJid|callId
 *   hangup()   end control → leave media → leave the room → report timestamps (until acknowledged)
 *
 * The engine composes its features, each a module with the ports it needs handed in: the call room
 * (room/callRoom.ts), starting a call (callStart.ts), registration and token renewal (registration.ts),
 * the call report and call-bug (callReport.ts), its room presence and rejoining after a reconnection
 * (roomPresence.ts), the agents of its call (agentsInCall.ts), hold and resume (holdResume.ts), its end
 * and teardown (callEnd.ts), the delivery of its end (timestampDelivery.ts), its page going
 * (pageLeaving.ts) and taking a call back from the website's previous page (callTakeBack.ts).
 */
import { InCallEngine } from '../room/inCallEngine.ts';
import type { GuestRegistration, GuestRoom, ReportStatus } from '@lobby/contracts';
import type { ChatMessage, ControlMessage, RoomPresence } from '../xmpp/session.ts';
import type { CallStatus } from '../state/callStatus.ts';
import { CallRoom } from '../room/callRoom.ts';
import { defaultPorts } from '../composition.ts';
import type { CallPorts } from '../ports/callPorts.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { initialGuestSnapshot, type GuestCallEvents, type GuestCallOptions, type GuestCallSnapshot } from './guestSnapshot.ts';
import { TimestampDelivery } from './timestampDelivery.ts';
import { TokenRenewal, lookUpAppointment, registerGuest, type Appointment } from './registration.ts';
import { GuestReport } from './callReport.ts';
import { GuestRoomPresence } from './roomPresence.ts';
import { AgentsInCall } from './agentsInCall.ts';
import { HoldResume } from './holdResume.ts';
import { GuestCallMedia } from './callMedia.ts';
import { startCall, type CallStartSteps, type ResumedCall } from './callStart.ts';
import { CallTakeBack } from './callTakeBack.ts';
import { PageLeaving, type LeftCall } from './pageLeaving.ts';
import { CallEnd } from './callEnd.ts';
import { RoomSelfPing } from '../room/roomSelfPing.ts';
import type { CallKind } from '../presence.ts';

export { UNKNOWN_APPOINTMENT } from './registration.ts';
export type { ResumedCall } from './callStart.ts';

export type { EndReason, GuestCallEvents, GuestCallOptions, GuestCallPhase, GuestCallSnapshot } from './guestSnapshot.ts';

export class GuestCall extends InCallEngine<GuestCallEvents> {
  readonly #options: GuestCallOptions;
  /** the engine's ports, handed to each feature (src/room/ports.ts) */
  readonly #ports: CallPorts;
  #registration: GuestRegistration | null = null;
  #room: GuestRoom | null = null;
  #xmpp: SignallingPort | null = null;
  /** the in-call core (media, feeds, mute, devices, screen, chat, hold and end teardown) */
  protected readonly inCall: CallRoom;
  #snapshot: GuestCallSnapshot = initialGuestSnapshot();

  /** the end and exit timestamps, sent until the server has them (a hang-up while offline) */
  readonly #delivery: TimestampDelivery;
  readonly #renewal: TokenRenewal;
  readonly #report: GuestReport;
  readonly #presence: GuestRoomPresence;
  readonly #agents: AgentsInCall;
  readonly #holdResume: HoldResume;
  readonly #media: GuestCallMedia;
  readonly #takeBack: CallTakeBack;
  readonly #pageLeaving: PageLeaving;
  readonly #ending: CallEnd;
  /** whether the guest is still in its room, its node alive (room/roomSelfPing.ts) */
  readonly #selfPing: RoomSelfPing;
  /** the appointment this call is for, filled by prepare() from the reference */
  #appointment: Appointment | null = null;
  /** the browser id prepare() registered with (the token renewal registers it again) */
  #guestId = '';

  constructor(options: GuestCallOptions) {
    super();
    this.#options = options;
    this.#appointment = options.appointment ?? null;
    const ports = defaultPorts(options.ports);
    this.#ports = ports;
    this.#takeBack = new CallTakeBack(ports.clock, () => this.#set({}));
    this.inCall = new CallRoom({
      ports,
      room: () => this.#room?.room ?? null,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      signalling: () => this.#xmpp,
      videoConstraints: options.videoConstraints,
      lineSteps: options.lineSteps,
      noiseSuppression: options.noiseSuppression ?? false,
      lineStepChanged: () => {
        if (this.#snapshot.phase === 'ongoing') this.#presence.announce();
      },
    });
    const { api } = options;
    this.#delivery = new TimestampDelivery((callId, flags, sendOptions) => api.updateTimestamp(callId, flags, sendOptions), ports.clock);
    this.#renewal = new TokenRenewal(ports.clock, () => api.register(this.#guestId, options.companyId));
    this.#report = new GuestReport({
      api,
      environment: ports.environment,
      companyId: options.companyId,
      callMethod: options.callMethod,
      serviceType: options.serviceType,
      recordCalls: options.recordCalls,
      location: options.location,
      state: () => this.#snapshot,
    });
    this.#presence = new GuestRoomPresence({
      environment: ports.environment,
      facts: options.environment,
      signalling: () => this.#xmpp,
      room: () => this.#room?.room ?? null,
      username: () => this.#registration?.username ?? null,
      call: () => this.#snapshot,
      displayName: options.displayName,
      appointment: () => this.#appointment,
      roundRobin: !!options.roundRobin,
      pageChanges: !!options.pageChanges,
      pageVisible: (visible) => this.#setStatus((s) => ({ ...s, pageVisible: visible })),
    });
    // the guest's room, while it belongs there: found lost (its ejabberd node died), it is joined again
    this.#selfPing = new RoomSelfPing({
      signalling: () => this.#xmpp,
      clock: ports.clock,
      targets: () => {
        const room = this.#room?.room;
        const nick = this.#registration?.username;
        return room && nick && this.#presence.inRoom ? [{ room, nick }] : [];
      },
      lost: (rooms) => {
        this.inCall.chat.roomsLost(rooms.map((t) => t.room));
        return this.#presence.rejoin();
      },
    });
    this.#agents = new AgentsInCall({
      clock: ports.clock,
      read: () => this.#snapshot,
      setStatus: (update) => this.#setStatus(update),
      isCurrent: (media) => this.inCall.isCurrent(media),
      firstAgentChanged: () => this.#presence.announce(),
      allLeft: () => void this.#ending.end('agentLeft'),
    });
    this.#holdResume = new HoldResume({
      api,
      room: this.inCall,
      agents: this.#agents,
      presence: this.#presence,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      call: () => {
        const registration = this.#registration;
        const xmpp = this.#xmpp;
        return registration && xmpp ? { username: registration.username, xmpp, assignmentId: this.#room?.assignmentId ?? null } : null;
      },
      localMedia: (kind) => this.#localMedia(kind),
      initiated: (callId) => this.#report.initiated(callId),
      startMedia: (callId, kind, stream, username, xmpp) => this.#media.start(callId, kind, stream, username, xmpp),
      failed: async (callId, message) => {
        this.#report.bug(callId, `resume: ${message}`);
        await this.#ending.end('error');
      },
    });
    this.#ending = new CallEnd({
      room: this.inCall,
      presence: this.#presence,
      delivery: this.#delivery,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
    });
    this.#pageLeaving = new PageLeaving({ clock: ports.clock, presence: this.#presence, delivery: this.#delivery, call: () => this.#snapshot });
    this.#media = new GuestCallMedia({
      api,
      janusServers: options.janusServers,
      webview: !!options.webview,
      watermark: options.watermark ?? null,
      room: this.inCall,
      report: this.#report,
      agents: this.#agents,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      announce: () => this.#presence.announce(),
      held: (peer) => void this.#holdResume.hold(peer),
      sendEnd: (callId) => {
        const room = this.#room?.room;
        if (room) this.#xmpp?.sendControl(room, { action: 'end', callId });
      },
      fail: (callId, code) => this.#ending.fail(callId, code),
    });
  }

  get snapshot(): GuestCallSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<GuestCallSnapshot>): void {
    const next = { ...this.#snapshot, ...patch };
    this.#snapshot = { ...next, takingCallBack: this.#takeBack.taking(next) };
    this.emit('change', this.#snapshot);
  }

  #setStatus(update: (status: CallStatus) => CallStatus): void {
    this.#set({ status: update(this.#snapshot.status) });
  }

  /** Registers the guest and starts its XMPP session in the room of its assignment. */
  async prepare(guestId: string, assignmentId?: number): Promise<void> {
    this.#set({ phase: 'connecting', error: null });
    const { api, companyId } = this.#options;
    try {
      const registration = await registerGuest(api, guestId, companyId);
      this.#registration = registration;
      this.#guestId = guestId;
      this.#renewal.start(registration.expires_in);
      await this.#resolveAppointment();
      this.#room =
        registration.guestRooms.find((r) => r.assignmentId === assignmentId) ??
        registration.guestRooms[0] ??
        null;
      if (!this.#room) throw new Error('the company has no assignment to call');
      const xmpp = this.#ports.signalling({
        wsUrl: this.#options.xmppWsUrl,
        jid: registration.jabberusername,
        credential: registration.credential,
        resource: 'web',
        maxReconnectBackoff: 10,
        // a reconnection after the first credential expired (an hour: a long call, then ejabberd
        // restarted) needs a fresh one; registering again finds the same guest and renews its API token
        refreshCredential: async () => (await api.register(guestId, companyId)).credential,
      });
      this.#xmpp = xmpp;
      xmpp.on('control', (control) => this.#onControl(control));
      xmpp.on('chat', (message) => this.#onChat(message));
      xmpp.on('roomPresence', (presence) => this.#onRoomPresence(presence));
      // a dropped XMPP connection is not the guest leaving: guest_exit_timestamp is written only when
      // the guest hangs up or leaves the page (hangup, pageHide)
      xmpp.on('disconnected', () => {
        this.inCall.chat.streamLost();
        this.#setStatus((s) => ({ ...s, connection: { ...s.connection, xmpp: false } }));
      });
      xmpp.on('reconnected', () => {
        // the network is back: what the guest did meanwhile (a hang-up) goes to the server now
        this.#delivery.retryNow();
        // a new stream is in no room: the guest's presence rejoins its own (roomPresence.ts)
        this.#setStatus((s) => ({ ...s, connection: { ...s.connection, xmpp: true } }));
        // and asks at once whether that room is the one it thinks (its node may have died meanwhile)
        void this.#presence.rejoin().then(() => this.#selfPing.checkNow());
      });
      await xmpp.connect();
      this.#setStatus((s) => ({
        ...s,
        connection: { ...s.connection, xmpp: true },
        callInitiated: this.#ports.clock.now(),
      }));
      await this.#presence.join();
      this.#selfPing.start();
      this.#set({ phase: 'ready', username: registration.username });
    } catch (error) {
      this.#set({ phase: 'failed', error: String(error instanceof Error ? error.message : error) });
      throw error;
    }
  }

  /** Fills the appointment's id and agent from its reference (the guest's link carries only the reference). */
  async #resolveAppointment(): Promise<void> {
    const wanted = this.#appointment;
    if (!wanted) return;
    const appointment = await lookUpAppointment(this.#options.api, wanted);
    if (appointment === wanted) return;
    this.#appointment = appointment;
    this.#setStatus((s) => ({
      ...s,
      appointment: { reference: appointment.reference, id: appointment.id, agent: { jabberusername: appointment.agentUsername } },
    }));
  }

  /** Chooses the room of another assignment before calling. */
  async selectAssignment(assignmentId: number): Promise<void> {
    const registration = this.#registration;
    if (!registration || !this.#xmpp) throw new Error('not prepared');
    const next = registration.guestRooms.find((r) => r.assignmentId === assignmentId);
    if (!next || next.room === this.#room?.room) return;
    await this.#presence.switchRoom(() => {
      this.#room = next;
    });
  }

  /**
   * Starts a call. Resolves with the report status once the guest is published (or stopped). `resume`:
   * the call this guest had on the website's previous page (docs/widget.md "Moving between pages"),
   * reported already: it is published again under its own id, and the agent who answered it comes back.
   */
  async call(kind: CallKind, resume?: ResumedCall): Promise<ReportStatus> {
    const registration = this.#registration;
    const room = this.#room;
    const xmpp = this.#xmpp;
    if (!registration || !room || !xmpp) throw new Error('prepare() first');
    const steps: CallStartSteps = {
      username: registration.username,
      assignmentId: room.assignmentId,
      appointmentReference: this.#appointment?.reference ?? null,
      xmpp,
      report: this.#report,
      presence: this.#presence,
      media: this.#media,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      localMedia: (k) => this.#localMedia(k),
      teardown: (reason) => this.#ending.teardown(reason),
      ended: (callId) => this.#delivery.deliver(callId, ['call_ended_timestamp']),
    };
    if (resume) this.#takeBack.start(resume);
    return startCall(steps, kind, resume);
  }

  /** The guest's camera (video calls) and microphone, with the app's constraints read now. */
  #localMedia(kind: CallKind): Promise<MediaStream> {
    return this.#ports.devices.getUserMedia({
      video: kind === 'video',
      ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
      ...(this.#options.audioConstraints ? { audioConstraints: this.#options.audioConstraints } : {}),
    });
  }

  /** Chat in the call's room ("Call status": newest first, unread while the chat is closed). */
  #onChat(message: ChatMessage): void {
    if (message.room !== this.#room?.room || message.delayed || !this.#snapshot.callId) return;
    const mine = message.nick === this.#registration?.username;
    const peer = this.#snapshot.status.peers.find((p) => p.username === message.nick);
    const from = mine ? (this.#registration?.jabberusername ?? message.nick) : (peer?.peerJID ?? message.nick);
    this.inCall.chat.receive(message, mine, from);
  }

  /** Agents' presence in our room: their names and mute state (docs/protocol.md "Mute state"). */
  #onRoomPresence(presence: RoomPresence): void {
    if (presence.room !== this.#room?.room) return;
    // our own presence: we are in our room (again), and the chat it did not echo goes again
    if (presence.self) return presence.available ? this.inCall.chat.roomJoined(presence.room) : undefined;
    if (presence.lobby?.userType === 'guest') return;
    this.#agents.onRoomPresence(presence);
    this.inCall.presenceMuted(presence);
    this.inCall.chat.otherSidePresence(presence);
  }

  /** Uploads a file (POST /upload/{type}, forChat) and sends its link in the chat. */
  async sendFile(file: Blob & { name?: string }): Promise<void> {
    await this.inCall.chat.sendFile(file, (type, blob) => this.#options.api.upload(type, blob, this.#options.companyId));
  }

  /**
   * Reads a chat file with our token (an <img> or a link cannot carry it): the caller shows the Blob
   * through a blob: URL. Only the files of this guest's calls are given out (the server answers 403).
   */
  fetchFile(url: string): Promise<Blob> {
    return this.#options.api.fetchFile(url);
  }

  /**
   * Starts sharing the screen as the `{username}-screen` publisher (recorded like the camera when the call
   * is: the server names and starts recordings, docs/protocol.md "Recording").
   */
  async startScreenShare(): Promise<void> {
    if (!this.#snapshot.callId || !this.#registration?.username) return;
    await this.inCall.startScreenShare();
  }

  #onControl(control: ControlMessage): void {
    if (control.callId !== this.#snapshot.callId || control.room !== this.#room?.room) return;
    // the room echoes our own controls (an end we sent as our call failed) back to us
    if (control.from === `${control.room}/${this.#registration?.username ?? ''}`) return;
    if (control.action === 'end') void this.#ending.end('agent');
    else if (control.action === 'hold') void this.#holdResume.hold(control.from);
    else if (control.action === 'resume') void this.#holdResume.resume();
    else if (control.action === 'answer') {
      // p2p: the agent answered and waits for our Jingle session (the room's occupant, no one else)
      const peer = this.#agents.answering(control);
      if (peer) this.inCall.media?.connectPeer?.(peer, peer.split('/')[0]!);
    }
  }

  /** The guest hangs up (or cancels while waiting). */
  async hangup(): Promise<void> {
    const callId = this.#snapshot.callId;
    if (callId && this.#room) this.#xmpp?.sendControl(this.#room.room, { action: 'end', callId });
    await this.#ending.end('guest');
  }

  protected callIsVideo(): boolean {
    return this.#snapshot.callKind === 'video';
  }

  /** Mutes our microphone or camera and tells the room (the agents show it). */
  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    this.inCall.setMuted(kind, muted);
    if (this.#snapshot.phase === 'ongoing' || this.#snapshot.phase === 'waiting') this.#presence.announce();
  }

  /**
   * Called instead of pageHide when the website's next page takes the call back (docs/widget.md "Moving
   * between pages"): the agents see the guest navigating, not leaving, and the call stays open; what the
   * server has not acknowledged yet still outlives the page. Answers the call to resume, or null.
   */
  pageChange(): LeftCall | null {
    return this.#pageLeaving.change();
  }

  /** The website is about to replace its page (its `beforeunload`): the agents hear Navigating (pageLeaving.ts). */
  pageLeaving(): void {
    this.#pageLeaving.leaving();
  }

  /** The page is being left: the guest really leaves, and the call ends with the tab (pageLeaving.ts). */
  pageHide(): void {
    this.#pageLeaving.hide();
  }

  /** Ends everything: call, room presence and the XMPP session. */
  async close(): Promise<void> {
    this.#renewal.stop();
    this.#selfPing.stop();
    if (
      this.#snapshot.phase === 'waiting' ||
      this.#snapshot.phase === 'ongoing' ||
      this.#snapshot.phase === 'starting'
    ) {
      await this.hangup();
    }
    await this.#xmpp?.disconnect();
    this.#xmpp = null;
  }
}
