/**
 * The ports of the call engines: everything GuestCall, AgentDesk and their shared CallRoom need from the
 * outside world comes in through these interfaces, so that the engines never construct an XMPP or a Janus
 * session nor reach `navigator` / `document` themselves. `defaultPorts()` wires the real ones (StanzaJS,
 * janus.js, the browser); unit tests pass fakes (packages/call/test/helpers/fakes.ts).
 *
 * The API port is the engines' `api` option (GuestApi / ConsoleApi), an interface already.
 */
import type { LobbyPresenceElement } from '../presence.ts';
import {
  MediaSession,
  type ChangeDevicesOptions,
  type DeviceChoice,
  type MediaEvents,
  type MediaSessionOptions,
  type PublishOptions,
  type RoomOptions,
} from '../media/mediaSession.ts';
import { getLocalMedia } from '../media/devices.ts';
import { warmSocket } from '../media/warmSocket.ts';
import { MediaStandby, type StandbyRequest } from '../media/standby.ts';
import { XmppSession, type XmppEvents, type XmppSessionOptions } from '../xmpp/session.ts';
import type { CallControl } from '../xmpp/stanzas.ts';
import type { OutgoingChat } from '../xmpp/session.ts';
import type { JinglePort } from '../xmpp/jingle.ts';
import { P2PTransport, type P2POptions } from '../media/p2pTransport.ts';

type Subscribe<Events> = <K extends keyof Events>(event: K, listener: (payload: Events[K]) => void) => () => void;

/** Signalling: the XMPP session (rooms, presence, control messages, chat). */
export interface SignallingPort {
  readonly connected: boolean;
  /** ICE servers the session discovered (handed to the media transport) */
  readonly iceServers: RTCIceServer[];
  /** Jingle sessions for p2p calls (docs/protocol.md "p2p"); null before connecting */
  readonly jingle?: JinglePort | null;
  on: Subscribe<XmppEvents>;
  connect(): Promise<void>;
  joinRoom(room: string, nick: string, status: string, lobby: LobbyPresenceElement): Promise<void>;
  setRoomPresence(room: string, nick: string, status: string, lobby: LobbyPresenceElement): void;
  leaveRoom(room: string, nick: string): Promise<void>;
  sendControl(room: string, control: CallControl): void;
  sendChat(room: string, message: OutgoingChat | string): string;
  disconnect(): Promise<void>;
}

/**
 * Media transport: one participant's media in one call (publish, subscribe to the others, screen share,
 * mute, devices). Today Janus (MediaSession); a direct peer connection plugs in behind the same port.
 */
export interface MediaTransport {
  /**
   * Its events, with the media server's health among them (media/mediaHealth.ts): connectRetry
   * (Janus not answering yet), reconnecting / reconnected (the session claimed on a new connection), lost.
   */
  on: Subscribe<MediaEvents>;
  /** connects with a timeout per endpoint and retries the round (connectRetry told each time) */
  connect(): Promise<void>;
  attachPublisher(): Promise<void>;
  /** records that the call's room (granted by the server) is in use */
  useRoom(): void;
  join(room: RoomOptions, display: string): Promise<unknown>;
  publish(options: PublishOptions): Promise<void>;
  startScreenShare(track: MediaStreamTrack): Promise<void>;
  stopScreenShare(): Promise<void>;
  readonly sharingScreen: boolean;
  setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void>;
  /** true when something changed; the published stream is then `localStream` */
  changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean>;
  readonly localStream: MediaStream | null;
  /** `hold`: the call is being held (a p2p transport tells its peer with a Jingle session-info first) */
  close(options?: { destroyRoom?: boolean; hold?: boolean }): Promise<void>;
  /** p2p, the guest's side: opens the Jingle session toward the agent who answered (`peer`: full JID) */
  connectPeer?(peer: string, display: string): void;
  peerConnections(): { publisher?: RTCPeerConnection; subscriber?: RTCPeerConnection; screen?: RTCPeerConnection };
}

export type LocalMediaRequest = Parameters<typeof getLocalMedia>[0];

/** Devices: the camera and microphone, and the screen. */
export interface DevicesPort {
  getUserMedia(request: LocalMediaRequest): Promise<MediaStream>;
  getDisplayMedia(): Promise<MediaStream>;
}

/** Time: read and wait (tests advance a fake clock). */
export interface ClockPort {
  now(): number;
  /** runs `run` after `ms`; returns the function that cancels it */
  setTimeout(run: () => void, ms: number): () => void;
}

/** The page the engine runs in (docs/protocol.md "Presence": visibility, Android, notifications). */
export interface EnvironmentPort {
  pageHidden(): boolean;
  /** calls `listener` on every visibility change; returns the function that unsubscribes */
  onVisibilityChange(listener: () => void): () => void;
  isAndroid(): boolean;
  notificationAllowed(): boolean;
  userAgent(): string;
}

/** The media transport's options: Janus's, or (a p2p call, the server's grant says so) the Jingle peer's. */
export type MediaTransportOptions = MediaSessionOptions & { p2p?: P2POptions };

export interface CallPorts {
  signalling: (options: XmppSessionOptions) => SignallingPort;
  media: (options: MediaTransportOptions) => MediaTransport;
  /**
   * Opens the connection to the media server ahead of a call (the first of `servers`), for the next
   * media session to take (media/warmSocket.ts), and with `standby` a whole Janus session with its
   * handles, which the next call's `media` is then (media/standby.ts); optional: without it, a session
   * opens its own.
   */
  warmMedia?: (servers: string[], standby?: StandbyRequest) => void;
  /** Ends what warmMedia made (the console goes offline). */
  coolMedia?: () => void;
  devices: DevicesPort;
  clock: ClockPort;
  environment: EnvironmentPort;
}

const browserEnvironment: EnvironmentPort = {
  pageHidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  onVisibilityChange(listener) {
    if (typeof document === 'undefined') return () => undefined;
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
  isAndroid: () =>
    typeof navigator !== 'undefined' && /Android/i.test(navigator.userAgent) && /Mobile/i.test(navigator.userAgent),
  notificationAllowed: () => typeof Notification !== 'undefined' && Notification.permission === 'granted',
  userAgent: () => (typeof navigator !== 'undefined' ? navigator.userAgent : 'unknown'),
};

const browserClock: ClockPort = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

/** The real ports (StanzaJS, janus.js, the browser), each replaceable by `overrides`. */
export function defaultPorts(overrides: Partial<CallPorts> = {}): CallPorts {
  const clock = overrides.clock ?? browserClock;
  // one standby session per engine (its CallRoom makes its ports once)
  const standby = new MediaStandby((options) => new MediaSession(options), clock);
  return {
    signalling: (options) => new XmppSession(options),
    media: (options) => {
      if (options.p2p) return new P2PTransport(options.p2p);
      return standby.take(options) ?? new MediaSession(options);
    },
    warmMedia: (servers, request) => {
      if (servers[0]) warmSocket(servers[0]);
      if (request) standby.prepare(servers, request);
    },
    coolMedia: () => standby.close(),
    devices: {
      getUserMedia: (request) => getLocalMedia(request),
      getDisplayMedia: () => navigator.mediaDevices.getDisplayMedia({ video: true, audio: false }),
    },
    clock,
    environment: browserEnvironment,
    ...overrides,
  };
}

/** Publishing begins only when the page is visible (docs/protocol.md "Media session"). */
export function whenVisible(environment: EnvironmentPort): Promise<void> {
  if (!environment.pageHidden()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = environment.onVisibilityChange(() => {
      if (environment.pageHidden()) return;
      stop();
      resolve();
    });
  });
}
