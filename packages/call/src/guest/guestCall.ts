/**
 * The guest's side of a call (docs/protocol.md), framework-free: the guest app renders its snapshots.
 *
 *   prepare()  register → XMPP session start (roster, presence, ICE servers, carbons) → join own room
 *   call()     camera → report add (ok | outOfQuota | blocked) → Janus room → publish → OpenCall|target|callId
 *   (agent)    first remote stream → peer call Resumed → InCall|agentJid|callId
 *   hangup()   end control → leave media → leave the room → report timestamps (until acknowledged)
 */
import { isCallIdOf, newCallId } from '../callId.ts';
import { InCallEngine } from '../room/inCallEngine.ts';
import { encodePresenceStatus, joinStatus, presenceImageUrl, presenceName, presenceTarget, type LobbyPresenceElement } from '../presence.ts';
import type { GuestRegistration, GuestRoom, ReportStatus } from '@lobby/contracts';
import type { GuestApi } from '../api/guestApi.ts';
import type { CallStage, RemoteFeed } from '../media/mediaSession.ts';
import { consoleBuffer } from '../consoleBuffer.ts';
import { ICE_FAILED, MEDIA_LOST, MEDIA_SERVER_DOWN, grantWithRetry, lostCode, type MediaNotice } from '../media/mediaHealth.ts';
import { UNKNOWN_QUALITY, type NetworkQuality } from '../media/networkQuality.ts';
import type { WatermarkOptions } from '../media/watermark.ts';
import type { ChatMessage, ControlMessage, RoomPresence } from '../xmpp/session.ts';
import { initialCallStatus, isScreenDisplay, peerJoined, peerLeft, peerPaused, type CallStatus } from '../state/callStatus.ts';
import { ApiError } from '../api/http.ts';
import { retry } from '../media/retry.ts';
import { CallRoom, type FeedHooks } from '../room/callRoom.ts';
import { TimestampDelivery } from './timestampDelivery.ts';
import { P2P_UNREACHABLE, answeringPeer, isP2PGrant, transportFor } from '../room/p2pCall.ts';
import type { CallPorts, MediaTransport, SignallingPort } from '../room/ports.ts';

export type GuestCallPhase =
  | 'idle' // nothing yet
  | 'connecting' // registering and starting the XMPP session
  | 'ready' // may call
  | 'starting' // report, devices, media room
  | 'waiting' // published, no agent yet
  | 'ongoing' // an agent answered
  | 'ended' // the call ended (by either side)
  | 'outOfQuota'
  | 'blocked'
  | 'failed';

export type EndReason = 'guest' | 'agent' | 'agentLeft' | 'error';

export interface GuestCallSnapshot {
  phase: GuestCallPhase;
  status: CallStatus;
  username: string | null;
  callId: string | null;
  callKind: 'video' | 'voice';
  localStream: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  endReason: EndReason | null;
  error: string | null;
  /** call stages reached (docs/protocol.md "Media session"), for call-bug reports */
  stages: Partial<Record<CallStage, boolean>>;
  /** our own microphone and camera state (the others' are in status.mutedAudioJIDs / mutedVideoJIDs) */
  muted: { audio: boolean; video: boolean };
  /** our own shared screen while status.screenShare */
  localScreen: MediaStream | null;
  /** The report's InitialCallID: the first call id of this call (set once; hold/resume changes callId) */
  initialCallId: string | null;
  /** the media server is waited for or reconnected to (media/mediaHealth.ts): shown to the guest */
  mediaNotice: MediaNotice;
  /** the line's quality in the call (media/networkQuality.ts), for the indicator */
  networkQuality: NetworkQuality;
}

/** The engine's error when the guest's appointment link names no appointment (404 from the server). */
export const UNKNOWN_APPOINTMENT = 'unknownAppointment';

export interface GuestCallOptions {
  api: GuestApi;
  /** the guest's name for the agents (welcome form or website pre-fill); read whenever presence is sent */
  displayName?: () => string | null | undefined;
  companyId: number;
  /** e.g. ws://localhost:8080/xmpp-websocket */
  xmppWsUrl: string;
  /** e.g. ['ws://localhost:8080/janus', 'http://localhost:8080/janus-http'] */
  janusServers: string[];
  callMethod?: string;
  roundRobin?: boolean;
  recordCalls?: boolean;
  webview?: boolean;
  /**
   * An appointment call (/appointment/{reference}): give the reference; prepare() looks the appointment up
   * (GET /api/appointment/{reference}) and fills the id and the agent's lowercase username when missing.
   */
  appointment?: { reference: string; id: string; agentUsername: string } | null;
  serviceType?: 'talk' | 'widget';
  /** page visibility and device facts (docs/protocol.md "Presence"); the browser's by default */
  environment?: () => { pageHidden: boolean; isAndroid: boolean; notificationAllowed: boolean };
  videoConstraints?: MediaTrackConstraints;
  /** the company's streamWatermark: drawn into the guest's sent camera video when set */
  watermark?: WatermarkOptions | null;
  /** read at each call (and resume): the guest app sets `deviceId` to the microphone chosen on the preview */
  audioConstraints?: MediaTrackConstraints;
  /** the guest's position when the company asked for it (read when the call is reported; shown to agents) */
  location?: () => { latitude: string; longitude: string } | null;
  /** signalling, media transport, devices, clock and page (src/room/ports.ts); the real ones by default */
  ports?: Partial<CallPorts>;
}

export type GuestCallEvents = { change: GuestCallSnapshot };

export class GuestCall extends InCallEngine<GuestCallEvents> {
  readonly #options: GuestCallOptions;
  #registration: GuestRegistration | null = null;
  #room: GuestRoom | null = null;
  #xmpp: SignallingPort | null = null;
  /** the in-call core (media, feeds, mute, devices, screen, chat, hold and end teardown) */
  protected readonly inCall: CallRoom;
  #stopVisibility: (() => void) | null = null;
  /** the agent who put the call on hold (target of CallOnHold / CallResumed) */
  #heldBy: string | null = null;
  #resuming = false;
  /** agents in our room: nick → bare JID (from their room presence) */
  #occupants = new Map<string, string>();
  /** agents' names from their room presence (bare JID → name) */
  #names = new Map<string, string>();
  /** agents' pictures by bare JID, from their room presence */
  #images = new Map<string, string>();
  /** the last agent whose stream we received */
  #lastPeer: string | null = null;
  /** While waiting, the status follows the page's visibility (Away on hidden Android pages) */
  readonly #onVisibility = (): void => {
    const visible = !this.inCall.ports.environment.pageHidden();
    this.#setStatus((s) => ({ ...s, pageVisible: visible }));
    if (this.#snapshot.phase === 'waiting') this.#announce();
  };
  #snapshot: GuestCallSnapshot = {
    phase: 'idle',
    status: initialCallStatus(),
    username: null,
    callId: null,
    callKind: 'video',
    localStream: null,
    remoteFeeds: [],
    endReason: null,
    error: null,
    stages: {},
    muted: { audio: false, video: false },
    localScreen: null,
    initialCallId: null,
    mediaNotice: null,
    networkQuality: UNKNOWN_QUALITY,
  };

  /** the end and exit timestamps, sent until the server has them (a hang-up while offline: guest/timestampDelivery.ts) */
  readonly #delivery: TimestampDelivery;
  /**
   * Whether the guest belongs in its room: from prepare() until a call ends, and again from the next
   * call. A guest whose call ended leaves the room and a reconnection does not bring it back, so the
   * server's vanished-guest rule sees it gone (docs/protocol.md "End").
   */
  #inRoom = false;

  /** the appointment this call is for, filled by prepare() from the reference */
  #appointment: { reference: string; id: string; agentUsername: string } | null = null;

  constructor(options: GuestCallOptions) {
    super();
    this.#options = options;
    this.#appointment = options.appointment ?? null;
    this.inCall = new CallRoom({
      ports: options.ports,
      room: () => this.#room?.room ?? null,
      read: () => this.#snapshot,
      write: (patch) => this.#set(patch),
      signalling: () => this.#xmpp,
      videoConstraints: options.videoConstraints,
    });
    this.#delivery = new TimestampDelivery(
      (callId, flags, sendOptions) => options.api.updateTimestamp(callId, flags, sendOptions),
      this.inCall.ports.clock,
    );
  }

  get snapshot(): GuestCallSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<GuestCallSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    this.emit('change', this.#snapshot);
  }

  #setStatus(update: (status: CallStatus) => CallStatus): void {
    this.#set({ status: update(this.#snapshot.status) });
  }

  #lobbyElement(): LobbyPresenceElement {
    const element: LobbyPresenceElement = {
      userType: 'guest',
      appointmentID: this.#appointment?.id ?? '',
    };
    if (this.#snapshot.callId) element.callType = this.#snapshot.callKind;
    if (this.#snapshot.muted.audio) element.audioMuted = true;
    if (this.#snapshot.muted.video) element.videoMuted = true;
    const name = presenceName(this.#options.displayName?.());
    if (name) element.name = name;
    return element;
  }

  #environment() {
    if (this.#options.environment) return this.#options.environment();
    const { environment } = this.inCall.ports;
    return {
      pageHidden: environment.pageHidden(),
      isAndroid: environment.isAndroid(),
      notificationAllowed: environment.notificationAllowed(),
    };
  }

  #locationField(): { location?: { latitude: string; longitude: string } } {
    const location = this.#options.location?.() ?? null;
    // the server takes plain decimal strings only (a position like 1e-7 is left out rather than refused)
    const decimal = /^-?[0-9]{1,3}(\.[0-9]+)?$/;
    return location && decimal.test(location.latitude) && decimal.test(location.longitude) ? { location } : {};
  }

  /** Registers the guest and starts its XMPP session in the room of its assignment. */
  async prepare(guestId: string, assignmentId?: number): Promise<void> {
    this.#set({ phase: 'connecting', error: null });
    try {
      // a 503 is ejabberd not creating the guest's rooms in time (a busy hour): asked again, a few times
      const registration = await retry(() => this.#options.api.register(guestId, this.#options.companyId), {
        attempts: REGISTER_ATTEMPTS,
        delayMs: REGISTER_RETRY_MS,
        maxDelayMs: 4 * REGISTER_RETRY_MS,
        transient: (error) => error instanceof ApiError && error.status === 503,
        onRetry: (error, attempt) => console.warn(`register: attempt ${attempt} failed: ${String(error)}`),
      });
      this.#registration = registration;
      this.#renewBeforeExpiry(guestId, registration.expires_in);
      await this.#resolveAppointment();
      this.#room =
        registration.guestRooms.find((r) => r.assignmentId === assignmentId) ??
        registration.guestRooms[0] ??
        null;
      if (!this.#room) throw new Error('the company has no assignment to call');
      const xmpp = this.inCall.ports.signalling({
        wsUrl: this.#options.xmppWsUrl,
        jid: registration.jabberusername,
        credential: registration.credential,
        resource: 'web',
        maxReconnectBackoff: 10,
        // a reconnection after the first credential expired (an hour: a long call, then ejabberd
        // restarted) needs a fresh one; registering again finds the same guest and renews its API token
        refreshCredential: async () => (await this.#options.api.register(guestId, this.#options.companyId)).credential,
      });
      this.#xmpp = xmpp;
      xmpp.on('control', (control) => this.#onControl(control));
      xmpp.on('chat', (message) => this.#onChat(message));
      xmpp.on('roomPresence', (presence) => this.#onRoomPresence(presence));
      // a dropped XMPP connection is not the guest leaving: guest_exit_timestamp is written only when
      // the guest hangs up or leaves the page (hangup, pageHide)
      xmpp.on('disconnected', () => {
        this.#setStatus((s) => ({ ...s, connection: { ...s.connection, xmpp: false } }));
      });
      xmpp.on('reconnected', () => {
        // the network is back: what the guest did meanwhile (a hang-up) goes to the server now
        this.#delivery.retryNow();
        void this.#rejoin();
      });
      await xmpp.connect();
      this.#setStatus((s) => ({
        ...s,
        connection: { ...s.connection, xmpp: true },
        callInitiated: this.inCall.ports.clock.now(),
      }));
      await xmpp.joinRoom(this.#room.room, registration.username, '', this.#lobbyElement());
      this.#inRoom = true;
      this.#set({ phase: 'ready', username: registration.username });
    } catch (error) {
      this.#set({ phase: 'failed', error: String(error instanceof Error ? error.message : error) });
      throw error;
    }
  }

  /** Fills the appointment's id and agent from its reference (the guest's link carries only the reference). */
  async #resolveAppointment(): Promise<void> {
    const wanted = this.#appointment;
    if (!wanted || (wanted.id && wanted.agentUsername)) return;
    if (!this.#options.api.appointment) throw new Error('appointment lookups are not available');
    const found = await this.#options.api.appointment(wanted.reference).catch((error: unknown) => {
      // a link to an appointment that does not exist (mistyped, cancelled, another company's): the guest
      // app shows its own screen for it, not a connection failure
      if (error instanceof ApiError && error.status === 404) throw new Error(UNKNOWN_APPOINTMENT);
      throw error;
    });
    const appointment = { reference: found.reference, id: String(found.id), agentUsername: found.agentUsername.toLowerCase() };
    this.#appointment = appointment;
    this.#setStatus((s) => ({
      ...s,
      appointment: { reference: appointment.reference, id: appointment.id, agent: { jabberusername: appointment.agentUsername } },
    }));
  }

  /** Chooses the room of another assignment before calling. */
  async selectAssignment(assignmentId: number): Promise<void> {
    const registration = this.#registration;
    const xmpp = this.#xmpp;
    if (!registration || !xmpp) throw new Error('not prepared');
    const next = registration.guestRooms.find((r) => r.assignmentId === assignmentId);
    if (!next || next.room === this.#room?.room) return;
    if (this.#room && this.#inRoom) await xmpp.leaveRoom(this.#room.room, registration.username);
    this.#room = next;
    this.#inRoom = false;
    await this.#enterRoom();
  }

  /**
   * Joins the guest's room again for a new call (it left at the last call's end). With the stream down
   * the reconnection joins it (#rejoin).
   */
  async #enterRoom(): Promise<void> {
    const xmpp = this.#xmpp;
    const room = this.#room;
    const username = this.#registration?.username;
    if (this.#inRoom || !xmpp || !room || !username) return;
    this.#inRoom = true;
    if (xmpp.connected) await xmpp.joinRoom(room.room, username, '', this.#lobbyElement());
  }

  /**
   * Starts a call. Resolves with the report status once the guest is published (or stopped). `resume`:
   * the call this guest had on the website's previous page (docs/widget.md "Moving between pages"),
   * reported already: it is published again under its own id, and the agent who answered it comes back.
   */
  async call(kind: 'video' | 'voice', resume?: { callId: string; initialCallId: string; answered: boolean }): Promise<ReportStatus> {
    const registration = this.#registration;
    const room = this.#room;
    const xmpp = this.#xmpp;
    if (!registration || !room || !xmpp) throw new Error('prepare() first');
    if (resume && !isCallIdOf(resume.callId, registration.username)) throw new Error('not a call of this guest');
    await this.#enterRoom();
    const callId = resume?.callId ?? newCallId(registration.username);
    if (resume?.answered) this.#answeredCallId = callId; // its answer is on the report already
    this.#set({
      phase: 'starting',
      callId,
      initialCallId: resume?.initialCallId ?? callId,
      callKind: kind,
      endReason: null,
      error: null,
      remoteFeeds: [],
      stages: {},
      muted: { audio: false, video: false },
      localScreen: null,
      status: {
        ...initialCallStatus(),
        connection: this.#snapshot.status.connection,
        callInitiated: this.#snapshot.status.callInitiated,
      },
    });
    const { api } = this.#options;
    // The guest may hang up at any await below (Cancel while the call starts): from then on this call
    // must not open the camera, publish or change the state of the screen that followed.
    const current = () => this.#snapshot.callId === callId && this.#snapshot.phase === 'starting';
    // The camera and microphone first: a guest who refuses them never enters the queue, so no report is
    // made for it (docs/guest-journey.md: the call is reported once the guest can wait for an agent; a
    // refused camera is not an abandoned call)
    let localStream: MediaStream;
    try {
      localStream = await this.#localMedia(kind);
    } catch (error) {
      if (!current()) return 'ok';
      const message = error instanceof Error ? error.message : String(error);
      console.warn(`call: no camera or microphone, no call reported: ${message}`);
      this.#set({ phase: 'failed', error: message });
      throw error;
    }
    const stopCamera = () => {
      for (const track of localStream.getTracks()) track.stop();
    };
    if (!current()) {
      stopCamera();
      return 'ok';
    }
    let report: Pick<Awaited<ReturnType<GuestApi['addReport']>>, 'status'>;
    try {
      report = resume ? { status: 'ok' } : await api.addReport({
        call_id: callId,
        company: this.#options.companyId,
        source: 'site',
        assignment_id: room.assignmentId,
        ...(this.#appointment ? { appointment_reference: this.#appointment.reference } : {}),
        ...(this.#options.serviceType ? { service_type: this.#options.serviceType } : {}),
        ...this.#locationField(),
        // the guest starts the call below the company's recording notice (the selection screen shows it
        // whenever the company records): that is its acknowledgement, stored with the call
        ...(this.#options.recordCalls !== false ? { recording_acknowledged: true } : {}),
      });
    } catch (error) {
      stopCamera();
      throw error;
    }
    if (!current() || report.status !== 'ok') stopCamera();
    if (!current()) return report.status;
    if (report.status !== 'ok') {
      this.#set({ phase: report.status });
      return report.status;
    }
    try {
      this.#set({
        localStream,
        status: { ...this.#snapshot.status, streamsReady: { local: true, remote: false } },
      });
      if (!resume) await api.updateTimestamp(callId, ['call_initiated_timestamp']).catch(() => undefined);
      if (!current()) return 'ok'; // the teardown took the camera
      await this.#startMedia(callId, kind, localStream, registration.username, xmpp);
      if (!current()) return 'ok'; // ended meanwhile: the teardown closed the media session
      this.#stopVisibility?.();
      this.#stopVisibility = this.inCall.ports.environment.onVisibilityChange(this.#onVisibility);
      this.#set({
        phase: this.#snapshot.status.peers.length ? 'ongoing' : 'waiting',
        status: { ...this.#snapshot.status, callStarted: true },
      });
      this.#announce();
      return 'ok';
    } catch (error) {
      // a step failing because the guest ended the call meanwhile is not a failure of the call
      if (!current()) return 'ok';
      const message = error instanceof Error ? error.message : String(error);
      this.#reportBug(callId, message);
      await this.#teardown('error');
      // the call is over (the media room could not be joined…): its report gets its end time (and the
      // server destroys its room), or the reports count it "Waiting or open"
      this.#delivery.deliver(callId, ['call_ended_timestamp']);
      this.#set({ phase: 'failed', error: message });
      throw error;
    }
  }

  /** The guest's camera (video calls) and microphone, with the app's constraints read now. */
  #localMedia(kind: 'video' | 'voice'): Promise<MediaStream> {
    return this.inCall.ports.devices.getUserMedia({
      video: kind === 'video',
      ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
      ...(this.#options.audioConstraints ? { audioConstraints: this.#options.audioConstraints } : {}),
    });
  }

  /** Creates the call's Janus room, joins it and publishes (docs/protocol.md "Media session" 1–2). */
  async #startMedia(
    callId: string,
    kind: 'video' | 'voice',
    localStream: MediaStream,
    username: string,
    xmpp: SignallingPort,
  ): Promise<void> {
    // the server creates the call's room and hands us its pin and a Janus token (docs/protocol.md)
    // while Janus is down the server cannot make the room: asked again, the guest told
    const grant = await grantWithRetry(() => this.#options.api.mediaGrant(callId, { webview: !!this.#options.webview }), {
      stopIf: () => this.#snapshot.callId !== callId || this.#snapshot.phase === 'ended',
      notice: (mediaNotice) => this.#set({ mediaNotice }),
    });
    // a p2p company's call: a Jingle session toward the agent who answers (docs/protocol.md "p2p")
    this.#methodOf.set(callId, isP2PGrant(grant) ? 'p2p' : 'mediaServer');
    const transport = transportFor(grant, callId, { servers: this.#options.janusServers, xmpp }, { role: 'initiator' });
    const media = this.inCall.open(transport.options, {
      peerFeed: (feed) => this.#onAgentFeed(feed, callId),
      health: this.#mediaHealth(callId),
    });
    this.#wireMedia(media, callId);
    // #teardown (a hang-up meanwhile) takes the media from the core and closes it: the core stops there
    await this.inCall.joinAndPublish(media, {
      room: transport.room,
      display: username,
      stream: Promise.resolve(localStream),
      video: kind === 'video',
      watermark: this.#options.watermark ?? null,
      connected: () => this.#setStatus((s) => ({ ...s, connection: { ...s.connection, janus: true } })),
      waitVisible: true,
    });
  }

  /** An agent's camera feed: the agent joins the call (the first one answers it). */
  #onAgentFeed(feed: RemoteFeed, callId: string): void {
    if (this.#snapshot.callId !== callId) return;
    const first = this.#answeredCallId !== callId;
    const mainBefore = this.#snapshot.status.peers[0]?.peerJID;
    const peer = {
      peerJID: feed.display,
      janusId: feed.feedId,
      username: feed.display.split('@')[0] ?? feed.display,
      ...(this.#names.has(feed.display) ? { name: this.#names.get(feed.display)! } : {}),
      ...(this.#images.has(feed.display) ? { profileImageUrl: this.#images.get(feed.display)! } : {}),
    };
    const hasVideo = feed.stream.getVideoTracks().length > 0;
    this.#lastPeer = peer.peerJID;
    // one change: the app sees the agent's stream and the answered call together
    this.#set({
      status: peerJoined(this.#snapshot.status, peer, hasVideo),
      remoteFeeds: this.inCall.feedsWith(feed),
      ...(this.#snapshot.phase === 'waiting' ? { phase: 'ongoing' as const } : {}),
    });
    if (this.#snapshot.phase !== 'ongoing') return;
    // our presence names the call's (first) agent: the one who answered, or a transfer's new agent
    // whose media reached us after the first agent had left
    if (this.#snapshot.status.peers[0]?.peerJID !== mainBefore) this.#announce();
    if (first) {
      this.#answeredCallId = callId;
      void this.#options.api.updateTimestamp(callId, ['call_answered_timestamp']).catch(() => undefined);
      void this.#options.api.updateReport({ call_id: callId, agent: peer.peerJID }).catch(() => undefined);
    }
  }

  /** the call whose answer we recorded (a resumed call has a new id and is answered again) */
  #answeredCallId: string | null = null;

  /** What only the guest follows of its media: stages (call-bug reports), agents leaving, Janus's end. */
  #wireMedia(media: MediaTransport, callId: string): void {
    media.on('stage', ({ stage, ok, error }) => {
      this.#set({ stages: { ...this.#snapshot.stages, [stage]: ok } });
      if (!ok) this.#reportBug(callId, `${stage}: ${error ?? ''}`);
    });
    // the agents in the media room, with or without their media yet (a transfer's new agent can be
    // announced before the first agent leaves and reach us after): while one is there, the call goes on
    const agentsInRoom = new Set<string>();
    const agentsExpected = () => agentsInRoom.size > 0;
    media.on('publisherJoined', ({ feedId, display }) => {
      if (!isScreenDisplay(display)) agentsInRoom.add(feedId);
    });
    media.on('publisherLeft', ({ feedId }) => {
      agentsInRoom.delete(feedId);
      if (!this.inCall.isCurrent(media)) return;
      const firstBefore = this.#snapshot.status.peers[0]?.peerJID;
      this.#set({ status: peerLeft(this.#snapshot.status, feedId) });
      // a transfer: the first agent left and another is in the call; our presence names the new one
      const firstNow = this.#snapshot.status.peers[0]?.peerJID;
      if (this.#snapshot.phase === 'ongoing' && firstNow && firstNow !== firstBefore) {
        this.#lastPeer = firstNow;
        this.#announce();
      }
      if (this.#snapshot.phase !== 'ongoing' || this.#snapshot.status.peers.length > 0 || agentsExpected()) return;
      // the last agent left: the call is over, unless a hold control (sent before the agent left
      // the media room, but carried by another server) arrives in the meantime
      this.inCall.ports.clock.setTimeout(() => {
        if (
          this.inCall.isCurrent(media) &&
          this.#snapshot.phase === 'ongoing' &&
          this.#snapshot.status.peers.length === 0 &&
          !agentsExpected() &&
          this.#snapshot.status.peerCall !== 'Paused'
        )
          void this.#end('agentLeft');
      }, AGENT_LEFT_GRACE_MS);
    });
    // p2p: the agent's Jingle session-info <hold/> holds the call like its hold control
    media.on('held', ({ peer }) => {
      if (this.inCall.isCurrent(media)) void this.#hold(peer);
    });
    media.on('destroyed', () => {
      if (this.inCall.isCurrent(media)) this.#setStatus((s) => ({ ...s, janusSessionEnded: true }));
    });
    // p2p: the agent who answered never took our Jingle session (declined, timed out, gone) through every
    // attempt: unless another agent's media reached us (a transfer), the call fails and the guest is told
    media.on('peerUnreachable', ({ peer, error }) => {
      if (!this.inCall.isCurrent(media) || this.#snapshot.status.peers.length > 0) return;
      // the agent's console waits for our session with no media to lose: the end control tells it (sent
      // before the teardown, which takes the guest out of its room)
      const room = this.#room?.room;
      if (room) this.#xmpp?.sendControl(room, { action: 'end', callId });
      void this.#mediaLost(media, callId, `${P2P_UNREACHABLE}: ${peer}: ${error}`, undefined, P2P_UNREACHABLE);
    });
  }

  // ---- resilience: the media server waited for, reconnected to, or lost -------------------------------
  /** The CallRoom's health hooks (media/mediaHealth.ts): the notice shown, and the lost session. */
  #mediaHealth(callId: string): FeedHooks['health'] {
    return {
      notice: (mediaNotice) => this.#set({ mediaNotice }),
      onLost: (error, media) => void this.#mediaLost(media, callId, error),
      onIceFailed: (handle, media) => void this.#mediaLost(media, callId, `${ICE_FAILED}: ${handle}`, handle),
      quality: (networkQuality) => this.#set({ networkQuality }),
    };
  }

  /**
   * Janus lost the call's session, a peer connection stayed down through every ICE restart (`handle`), or
   * (p2p) the agent never took our Jingle session (`code` P2P_UNREACHABLE):
   * the report is marked failed, the call ends and the guest is told.
   */
  async #mediaLost(
    media: MediaTransport,
    callId: string,
    error: string,
    handle?: 'publisher' | 'subscriber' | 'screen',
    code: string = handle ? ICE_FAILED : lostCode(error),
  ): Promise<void> {
    await this.#reportFailed(media, callId, handle);
    this.#reportBug(callId, code === MEDIA_LOST || code === MEDIA_SERVER_DOWN ? `${code}: ${error}` : error);
    if (this.#snapshot.callId !== callId || this.#snapshot.phase === 'ended') return;
    // 'failed' at once (not 'ended' first): the guest app shows why the call stopped
    this.#set({ phase: 'failed', error: code, endReason: 'error' });
    await this.#teardown('error');
    this.#delivery.deliver(callId, ['call_ended_timestamp']);
  }
  /**
   * The report marked failed, with the SDPs of the connection that failed (ICE failure),
   * or the publisher's (lost session).
   */
  async #reportFailed(media: MediaTransport, callId: string, handle: 'publisher' | 'subscriber' | 'screen' = 'publisher'): Promise<void> {
    const pcs = media.peerConnections();
    const pc = pcs[handle] ?? pcs.publisher;
    await this.#options.api
      .updateReport({
        call_id: callId,
        success: false,
        guest_local_sdp: pc?.localDescription?.sdp ?? '',
        guest_remote_sdp: pc?.remoteDescription?.sdp ?? '',
      })
      .catch(() => undefined);
  }
  // ---- end of resilience ------------------------------------------------------------------------------

  /** Sends `status|target|callId` to the room: OpenCall while waiting, InCall with the agent. */
  #announce(override?: 'CallOnHold' | 'CallResumed', overrideTarget = ''): void {
    const xmpp = this.#xmpp;
    const room = this.#room;
    const username = this.#registration?.username;
    const callId = this.#snapshot.callId;
    if (!xmpp || !room || !username || !callId) return;
    const { peers } = this.#snapshot.status;
    if (override) {
      this.#sendRoomPresence(xmpp, room.room, username, encodePresenceStatus({ status: override, target: overrideTarget, callId }));
      return;
    }
    if (this.#snapshot.status.peerCall === 'Paused') return; // on hold: CallOnHold stays
    const status = peers.length ? 'InCall' : joinStatus(this.#environment());
    const target = presenceTarget({
      peers,
      appointmentAgent: this.#appointment?.agentUsername || null,
      roundRobin: !!this.#options.roundRobin,
    });
    this.#sendRoomPresence(xmpp, room.room, username, encodePresenceStatus({ status, target, callId }));
  }

  /** Sends our room presence and keeps its status: a reconnection announces it again (#rejoin). */
  #sendRoomPresence(xmpp: SignallingPort, room: string, username: string, status: string): void {
    this.#roomStatus = status;
    if (xmpp.connected) xmpp.setRoomPresence(room, username, status, this.#lobbyElement());
  }

  // ---- signalling reconnection: the XMPP stream dropped and came back -----------------------------------
  /** the status of our room presence as the agents last had it (empty between calls) */
  #roomStatus = '';

  /**
   * The XMPP session came back after a drop (XmppSession reconnects by itself). A new stream
   * is in no room: we join ours again, announcing what the agents last had from us (OpenCall while we
   * wait, so we are back in their queues; InCall in a call; CallOnHold on hold).
   */
  async #rejoin(): Promise<void> {
    const xmpp = this.#xmpp;
    const room = this.#room;
    const username = this.#registration?.username;
    if (!xmpp || !room || !username) return;
    this.#setStatus((s) => ({ ...s, connection: { ...s.connection, xmpp: true } }));
    if (!this.#inRoom) return; // between calls the guest is in no room (its last call ended)
    await xmpp.joinRoom(room.room, username, this.#roomStatus, this.#lobbyElement()).catch((error: unknown) => {
      console.warn(`rejoining ${room.room} after a reconnection failed: ${String(error)}`);
    });
  }
  // ---- end of signalling reconnection -----------------------------------------------------------------

  /** Chat in the call's room ("Call status": newest first, unread while the chat is closed). */
  #onChat(message: ChatMessage): void {
    if (message.room !== this.#room?.room || message.delayed || !this.#snapshot.callId) return;
    const mine = message.nick === this.#registration?.username;
    const peer = this.#snapshot.status.peers.find((p) => p.username === message.nick);
    const from = mine ? (this.#registration?.jabberusername ?? message.nick) : (peer?.peerJID ?? message.nick);
    this.inCall.receiveChat(message, mine, from);
  }

  /** Agents' presence in our room: their names and mute state (docs/protocol.md "Mute state"). */
  #onRoomPresence(presence: RoomPresence): void {
    if (presence.self || presence.room !== this.#room?.room) return;
    if (presence.lobby?.userType === 'guest') return;
    const jid = presence.jid ? presence.jid.split('/')[0]! : presence.nick;
    if (presence.available && presence.jid) this.#occupants.set(presence.nick, jid);
    const name = presenceName(presence.lobby?.name);
    if (presence.available && name && this.#names.get(jid) !== name) {
      this.#names.set(jid, name);
      this.#setStatus((s) => ({ ...s, peers: s.peers.map((p) => (p.peerJID === jid ? { ...p, name } : p)) }));
    }
    // the agent's picture (peers profileImageUrl): kept, like the name, for its feed to come
    const image = presenceImageUrl(presence.lobby?.profileImageUrl);
    if (presence.available && this.#images.get(jid) !== image) {
      if (image) this.#images.set(jid, image);
      else this.#images.delete(jid);
      this.#setStatus((s) => ({
        ...s,
        peers: s.peers.map((p) => {
          if (p.peerJID !== jid) return p;
          const { profileImageUrl: _old, ...rest } = p;
          return image ? { ...rest, profileImageUrl: image } : rest;
        }),
      }));
    }
    this.inCall.presenceMuted(presence);
  }

  /** Uploads a file (POST /upload/{type}, forChat) and sends its link in the chat. */
  async sendFile(file: Blob & { name?: string }): Promise<void> {
    await this.inCall.sendFile(file, (type, blob) => this.#options.api.upload(type, blob, this.#options.companyId));
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
    if (control.action === 'end') void this.#end('agent');
    else if (control.action === 'hold') void this.#hold(control.from);
    else if (control.action === 'resume') void this.#resume();
    else if (control.action === 'answer') {
      // p2p: the agent answered and waits for our Jingle session (the room's occupant, no one else)
      const peer = answeringPeer(control, this.#occupants);
      if (peer) this.inCall.media?.connectPeer?.(peer, peer.split('/')[0]!);
    }
  }

  /**
   * Holding ("Hold and resume"): the agent paused the call. The peer call becomes Paused (on-hold count +1,
   * peers and muted lists cleared), our media stops (the room is destroyed: the call continues under a
   * new call id), and the room hears CallOnHold.
   */
  async #hold(from: string): Promise<void> {
    if (this.#snapshot.phase !== 'ongoing' || this.#snapshot.status.peerCall === 'Paused') return;
    // the holding agent: its room occupant's JID (its media may already have left the room)
    const nick = from.slice(from.indexOf('/') + 1);
    const agent =
      this.#occupants.get(nick) ??
      this.#snapshot.status.peers.find((p) => p.username === nick)?.peerJID ??
      this.#lastPeer ??
      '';
    this.#heldBy = agent;
    await this.inCall.hold(peerPaused, () => this.#announce('CallOnHold', agent), { destroyRoom: true });
  }

  /**
   * Resume: the call continues under a new call id, linked to the held one and the first one by
   * POST /call-report/hold-call; we publish in the new room and announce CallResumed|agent|newCallId,
   * which is what the agent follows into the new room.
   */
  async #resume(): Promise<void> {
    const registration = this.#registration;
    const xmpp = this.#xmpp;
    const current = this.#snapshot.callId;
    if (!registration || !xmpp || !current || this.#snapshot.status.peerCall !== 'Paused') return;
    if (this.#resuming) return;
    this.#resuming = true;
    const nextCallId = newCallId(registration.username);
    try {
      await this.inCall.holding;
      await this.#options.api.holdCall({
        origin_call_id: this.#snapshot.initialCallId ?? current,
        current_call_id: current,
        new_call_id: nextCallId,
        ...(this.#room ? { assignment_id: this.#room.assignmentId } : {}),
        guest_username: registration.username,
      });
      const kind = this.#snapshot.callKind;
      const localStream = await this.#localMedia(kind);
      this.#set({
        callId: nextCallId,
        localStream,
        muted: { audio: false, video: false },
        status: { ...this.#snapshot.status, peerCall: null, streamsReady: { local: true, remote: false } },
      });
      await this.#options.api
        .updateTimestamp(nextCallId, ['call_initiated_timestamp'])
        .catch(() => undefined);
      await this.#startMedia(nextCallId, kind, localStream, registration.username, xmpp);
      if (this.#snapshot.callId === nextCallId && this.#snapshot.status.peers.length === 0)
        this.#announce('CallResumed', this.#heldBy ?? '');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#reportBug(nextCallId, `resume: ${message}`);
      await this.#end('error');
    } finally {
      this.#resuming = false;
    }
  }

  /**
   * Each call's method, as its media grant said: the grant, not the company details the page loaded,
   * decides (an admin may switch the method while a guest's page is open).
   */
  readonly #methodOf = new Map<string, 'p2p' | 'mediaServer'>();

  #reportBug(callId: string, message: string): void {
    // no call-bug report for a p2p call (docs/protocol.md "p2p"; before its grant: the company's method)
    if ((this.#methodOf.get(callId) ?? this.#options.callMethod) === 'p2p') return;
    // the log is the app's last 110 console entries (consoleBuffer.ts), this failure last
    console.error(`call stage failed: ${message}`);
    void this.#options.api.callBug({
      call_id: callId,
      guest_log: JSON.stringify(consoleBuffer.entries()),
      guest_state: JSON.stringify({ phase: this.#snapshot.phase, stages: this.#snapshot.stages }),
      guest_client_info: this.inCall.ports.environment.userAgent(),
    });
  }

  /** The guest hangs up (or cancels while waiting). */
  async hangup(): Promise<void> {
    const callId = this.#snapshot.callId;
    if (callId && this.#room) this.#xmpp?.sendControl(this.#room.room, { action: 'end', callId });
    await this.#end('guest');
  }

  async #end(reason: EndReason): Promise<void> {
    const callId = this.#snapshot.callId;
    // a failed call is over already (its own end control comes back to us from the room)
    if (!callId || this.#snapshot.phase === 'ended' || this.#snapshot.phase === 'failed') return;
    this.#set({ phase: 'ended', endReason: reason });
    await this.#teardown(reason);
    const flags =
      reason === 'guest'
        ? (['guest_exit_timestamp', 'call_ended_timestamp'] as const)
        : (['call_ended_timestamp'] as const);
    this.#delivery.deliver(callId, [...flags]);
  }

  async #teardown(reason: EndReason): Promise<void> {
    this.#stopVisibility?.();
    this.#stopVisibility = null;
    // Take everything of this call now: closing the media session takes a while (up to the gateway's
    // destroy timeout), and "Call again" may start the next call meanwhile, whose camera, feeds and
    // presence this call's teardown must not touch.
    const endedCallId = this.#snapshot.callId;
    const taken = this.inCall.takeAll();
    this.#set({
      mediaNotice: null,
      networkQuality: UNKNOWN_QUALITY,
      localStream: null,
      localScreen: null,
      remoteFeeds: [],
      status: {
        ...this.#snapshot.status,
        peers: [],
        peerCall: null,
        screenShare: false,
        isZoomed: false,
        mutedAudioJIDs: [],
        mutedVideoJIDs: [],
        streamsReady: { local: false, remote: false },
        connection: { ...this.#snapshot.status.connection, janus: false },
      },
    });
    // the guest owns the room: destroying it ends the call for every agent at once
    await this.inCall.dispose(taken, { destroyRoom: reason === 'guest' || reason === 'error' });
    const xmpp = this.#xmpp;
    const nextCallStarted = this.#snapshot.callId !== endedCallId;
    if (!nextCallStarted && xmpp && this.#room && this.#registration && this.#inRoom) {
      // the call is over: the guest leaves its room (its presence there is its call's), and stays out
      // until its next call, so a reconnection meanwhile does not count it back in (docs/protocol.md "End")
      this.#inRoom = false;
      this.#roomStatus = '';
      if (xmpp.connected) void xmpp.leaveRoom(this.#room.room, this.#registration.username);
    }
  }

  protected callIsVideo(): boolean {
    return this.#snapshot.callKind === 'video';
  }

  /** Mutes our microphone or camera and tells the room (the agents show it). */
  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    this.inCall.setMuted(kind, muted);
    if (this.#snapshot.phase === 'ongoing' || this.#snapshot.phase === 'waiting') this.#announce();
  }

  /**
   * Called when the page is being left: the guest really leaves, and the call ends with the tab. The
   * beacon survives the tab closing; with call_ended_timestamp the server destroys the call's room.
   */
  pageHide(): void {
    const callId = this.#snapshot.callId;
    const open = callId && this.#snapshot.phase !== 'ended' && this.#snapshot.phase !== 'failed';
    // what the server has not acknowledged yet (this end, a hang-up pressed offline) outlives the page
    this.#delivery.flush(open ? { callId, flags: ['guest_exit_timestamp', 'call_ended_timestamp'] } : undefined);
  }

  /**
   * Called instead of pageHide when the website's next page takes the call back (docs/widget.md "Moving
   * between pages"): the agents see the guest navigating, not leaving, and the call stays open; what the
   * server has not acknowledged yet still outlives the page. Answers the call to resume, or null.
   */
  pageChange(): { callId: string; initialCallId: string; kind: 'video' | 'voice'; answered: boolean } | null {
    const { callId, initialCallId, callKind, phase } = this.#snapshot;
    if (!callId || !this.#announceNavigating()) {
      this.pageHide();
      return null;
    }
    this.#delivery.flush();
    return { callId, initialCallId: initialCallId ?? callId, kind: callKind, answered: phase === 'ongoing' };
  }

  /**
   * The website is about to replace its page (its `beforeunload`, before the page goes): the agents
   * hear Navigating while this page can still send it. A page that stays after all (a navigation
   * cancelled, a download) says its own status again a few seconds later.
   */
  pageLeaving(): void {
    if (this.#announceNavigating()) this.inCall.ports.clock.setTimeout(() => this.#announce(), NAVIGATION_CANCELLED_MS);
  }

  /** Tells the room this page is being replaced; false when there is no call in the room to keep. */
  #announceNavigating(): boolean {
    const { callId, phase } = this.#snapshot;
    const xmpp = this.#xmpp;
    const room = this.#room;
    const username = this.#registration?.username;
    if (!callId || (phase !== 'waiting' && phase !== 'ongoing') || !xmpp || !room || !username) return false;
    const target = presenceTarget({
      peers: this.#snapshot.status.peers,
      appointmentAgent: this.#appointment?.agentUsername || null,
      roundRobin: !!this.#options.roundRobin,
    });
    this.#sendRoomPresence(xmpp, room.room, username, encodePresenceStatus({ status: 'Navigating', target, callId }));
    return true;
  }

  /**
   * The guest's API token expires (2 h); a call, its hold and its rating can outlast it. Registering again
   * (the same guest, found by its browser id) renews it before then, and again before the next expiry;
   * a failed renewal is tried again a minute later.
   */
  #renewBeforeExpiry(guestId: string, expiresInSeconds: number): void {
    this.#cancelRenewal();
    const delay = Math.max(60, expiresInSeconds * 0.8) * 1000;
    this.#cancelRenewal = this.inCall.ports.clock.setTimeout(() => {
      this.#options.api.register(guestId, this.#options.companyId).then(
        (renewed) => this.#renewBeforeExpiry(guestId, renewed.expires_in),
        () => this.#renewBeforeExpiry(guestId, 75), // 80 % of 75 s: a minute
      );
    }, delay);
  }

  #cancelRenewal: () => void = () => undefined;

  /** Ends everything: call, room presence and the XMPP session. */
  async close(): Promise<void> {
    this.#cancelRenewal();
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

/** A page that said Navigating and is still here this much later was not replaced after all. */
const NAVIGATION_CANCELLED_MS = 5000;
/** How long the guest waits, after the last agent left the media room, before the call counts as over. */
const AGENT_LEFT_GRACE_MS = 1500;
/** registration refused with 503 (rooms not provisioned in time) is tried again after 1, 2 and 3 s */
const REGISTER_ATTEMPTS = 4;
const REGISTER_RETRY_MS = 1000;
