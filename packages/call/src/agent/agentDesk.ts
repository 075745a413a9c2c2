/**
 * The agent's side (the console), framework-free.
 *
 *   start()    XMPP token → session → join the rooms of open calls (and of each new one, live)
 *   queue      guests whose room presence says OpenCall, oldest first
 *   answer()   join the call's Janus room (pin in lowercase) and publish; the guest subscribes
 *   hangup()   end control to the room, leave the media room
 */
import { roomPin } from '../callId.ts';
import { Emitter } from '../emitter.ts';
import type { LobbyPresenceElement, PresenceInfo } from '../presence.ts';
import type { ConsoleApi, OpenCallRoom } from '../api/consoleApi.ts';
import { MediaSession, type RemoteFeed } from '../media/mediaSession.ts';
import { getLocalMedia } from '../media/devices.ts';
import { XmppSession, type RoomPresence } from '../xmpp/session.ts';

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
}

export interface AgentSnapshot {
  phase: AgentPhase;
  jid: string | null;
  queue: QueueEntry[];
  activeCall: ActiveCall | null;
  localStream: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  muted: { audio: boolean; video: boolean };
  error: string | null;
  /** the last call that ended, and why */
  lastEnded: { callId: string; reason: 'agent' | 'guest' | 'error' } | null;
}

export interface AgentDeskOptions {
  api: ConsoleApi;
  xmppWsUrl: string;
  janusServers: string[];
  videoConstraints?: MediaTrackConstraints;
}

export class AgentDesk extends Emitter<{ change: AgentSnapshot }> {
  readonly #options: AgentDeskOptions;
  #xmpp: XmppSession | null = null;
  #media: MediaSession | null = null;
  #nick = '';
  #rooms = new Map<string, OpenCallRoom>();
  #unsubscribe: (() => void) | null = null;
  /** last presence per room occupant, `room/nick` → presence */
  #presence = new Map<string, RoomPresence>();
  #snapshot: AgentSnapshot = {
    phase: 'offline',
    jid: null,
    queue: [],
    activeCall: null,
    localStream: null,
    remoteFeeds: [],
    muted: { audio: false, video: false },
    error: null,
    lastEnded: null,
  };

  constructor(options: AgentDeskOptions) {
    super();
    this.#options = options;
  }

  get snapshot(): AgentSnapshot {
    return this.#snapshot;
  }

  #set(patch: Partial<AgentSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
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
    xmpp.on('disconnected', () => this.#set({ phase: 'offline' }));
    await xmpp.connect();
    this.#set({ phase: 'idle', jid: token.jid });
    this.#unsubscribe = this.#options.api.onCallOpened((room) => void this.#joinRoom(room));
    for (const room of await this.#options.api.rooms()) await this.#joinRoom(room);
  }

  async #joinRoom(room: OpenCallRoom): Promise<void> {
    const xmpp = this.#xmpp;
    if (!xmpp) return;
    const known = this.#rooms.has(room.room);
    this.#rooms.set(room.room, room);
    if (known) return;
    try {
      await xmpp.joinRoom(room.room, this.#nick, '', { userType: 'agent', appointmentID: '' });
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
    if (active && active.room === presence.room && active.guestNick === presence.nick) {
      if (presence.available) this.#set({ activeCall: { ...active, guestStatus: presence.statusText } });
      else void this.#leaveCall('guest');
    }
    this.#set({ queue: this.#computeQueue() });
  }

  /** SPEC.md §4: members whose status is OpenCall are in an open call; everyone else is removed. */
  #computeQueue(): QueueEntry[] {
    const previous = new Map(this.#snapshot.queue.map((e) => [e.callId, e]));
    const entries: QueueEntry[] = [];
    for (const presence of this.#presence.values()) {
      const info: PresenceInfo = presence.info;
      if (info.status !== 'OpenCall' || !info.callId) continue;
      if (presence.lobby?.userType && presence.lobby.userType !== 'guest') continue;
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
    this.#set({ phase: 'joining', activeCall, error: null, lastEnded: null });
    try {
      const localStream = await getLocalMedia({
        // a voice call stays a voice call on both sides
        video: options.video ?? entry.callType === 'video',
        ...(this.#options.videoConstraints ? { videoConstraints: this.#options.videoConstraints } : {}),
      });
      this.#set({ localStream });
      const media = new MediaSession({ servers: this.#options.janusServers, iceServers: xmpp.iceServers });
      this.#media = media;
      media.on('remoteFeed', (feed) =>
        this.#set({
          remoteFeeds: [...this.#snapshot.remoteFeeds.filter((f) => f.feedId !== feed.feedId), feed],
        }),
      );
      media.on('remoteFeedRemoved', ({ feedId }) =>
        this.#set({ remoteFeeds: this.#snapshot.remoteFeeds.filter((f) => f.feedId !== feedId) }),
      );
      media.on('publisherLeft', ({ display }) => {
        if (display === entry.nick) void this.#leaveCall('guest');
      });
      media.on('destroyed', () => void this.#leaveCall('guest'));
      await media.connect();
      await media.attachPublisher();
      const bareJid = this.#snapshot.jid ?? this.#nick;
      await media.join({ room: callId, pin: roomPin(callId) }, bareJid);
      await media.publish({
        stream: localStream,
        audio: true,
        video: localStream.getVideoTracks().length > 0,
      });
      if (this.#activeCallId() === callId) this.#set({ phase: 'inCall' });
    } catch (error) {
      await this.#leaveCall('error');
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Read through a method: TypeScript would keep an earlier narrowing of the snapshot field. */
  #activeCallId(): string | null {
    return this.#snapshot.activeCall?.callId ?? null;
  }

  async hangup(): Promise<void> {
    const active = this.#snapshot.activeCall;
    if (!active) return;
    this.#xmpp?.sendControl(active.room, { action: 'end', callId: active.callId });
    await this.#leaveCall('agent');
  }

  async #leaveCall(reason: 'agent' | 'guest' | 'error'): Promise<void> {
    const active = this.#snapshot.activeCall;
    if (!active) return;
    const media = this.#media;
    this.#media = null;
    this.#set({
      phase: this.#xmpp?.connected ? 'idle' : 'offline',
      activeCall: null,
      remoteFeeds: [],
      lastEnded: { callId: active.callId, reason },
    });
    await media?.close();
    for (const track of this.#snapshot.localStream?.getTracks() ?? []) track.stop();
    this.#set({ localStream: null, muted: { audio: false, video: false } });
  }

  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    this.#media?.setMuted(kind, muted);
    this.#set({ muted: { ...this.#snapshot.muted, [kind]: muted } });
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
    this.#set({ phase: 'offline', queue: [] });
  }
}
