/**
 * The media transport port (docs/architecture.md "Ports"): one participant's media in one call — publish,
 * subscribe to the others, screen share, mute, devices — and the words both transports speak. Janus's is
 * media/mediaSession.ts; a direct peer connection (media/p2pTransport.ts) plugs in behind the same port.
 * Declared here, below media/, so that media/ implements it without importing the engines' side back.
 */
import type { MediaStandbyAnswer } from '@lobby/contracts';
import type { JinglePort } from '../xmpp/jingle.ts';

type Subscribe<Events> = <K extends keyof Events>(event: K, listener: (payload: Events[K]) => void) => () => void;

/** The company's stream watermark (media/watermark.ts draws it into the sent camera video). */
export interface WatermarkOptions {
  /** shown when there is no logo (or it cannot be drawn): the company's name */
  text: string;
  /** the company's waterMarkLogo; drawn only when it loads with CORS (a tainted canvas cannot be sent) */
  imageUrl?: string | null;
  /** frames per second of the marked video */
  fps?: number;
}

/** A microphone's noise-suppressed copy (media/noise/): `track` is sent; `stop` ends it (and its audio context). */
export interface SuppressedMicrophone {
  track: MediaStreamTrack;
  stop(): void;
  /** settles with the reason if the copy fails once running (the worklet's error): the raw microphone is sent again */
  failed?: Promise<string>;
}

/** Makes the suppressed copy of a microphone track, or null: the raw one is sent (the reason logged). */
export type SuppressNoise = (microphone: MediaStreamTrack) => Promise<SuppressedMicrophone | null>;

/** The stages docs/protocol.md "Media session" tracks; a failure of any one is reported as a call bug. */
export type CallStage =
  'createRoom' | 'joinRoom' | 'createOffer' | 'createAnswer' | 'localStream' | 'remoteStream';

/** The peer connections of one participant: its camera's, the others' feeds', its screen's. */
export type HandleKind = 'publisher' | 'subscriber' | 'screen';

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
  /** the noise suppressor (media/noise/suppression.ts); RNNoise's by default (tests pass a fake) */
  suppressNoise?: SuppressNoise;
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
  /** the sent microphone noise-suppressed (docs/architecture.md "Noise suppression"); off by default */
  noiseSuppression?: boolean;
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
  /**
   * A claim of the dropped session failed and is made again (`attempt`: how many failed so far): Janus is
   * not reachable. After a few the engines try to move the call to a new session (media/mediaHealth.ts
   * MOVE_AFTER_CLAIMS: its node may have died for good).
   */
  claimFailed: { attempt: number; error: string };
  lost: { error: string };
  /** p2p: the peer put the call on hold (Jingle session-info <hold/>) */
  held: { peer: string };
};

export interface CloseOptions {
  destroyRoom?: boolean;
  hold?: boolean;
  lost?: boolean;
}

/** Tells one of the media events (a transport's `emit`, handed to the modules it composes). */
export type TellMedia = <K extends keyof MediaEvents>(event: K, payload: MediaEvents[K]) => void;

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
  /** a dropped session's next claim at once, not after its wait (a move the server refused); absent: no claims */
  claimNow?(): void;
  attachPublisher(): Promise<void>;
  /** records that the call's room (granted by the server) is in use */
  useRoom(): void;
  join(room: RoomOptions, display: string): Promise<unknown>;
  publish(options: PublishOptions): Promise<void>;
  startScreenShare(track: MediaStreamTrack): Promise<void>;
  stopScreenShare(): Promise<void>;
  readonly sharingScreen: boolean;
  setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void>;
  /** noise suppression of the sent microphone on or off during the call (publish is told the first value) */
  setNoiseSuppression(on: boolean): Promise<void>;
  /** the others' video to us on or off, their audio kept (media/audioFirst.ts); absent: not possible */
  receiveVideo?(on: boolean): Promise<void>;
  /** true when something changed; the published stream is then `localStream` */
  changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean>;
  readonly localStream: MediaStream | null;
  /**
   * `hold`: the call is being held (a p2p transport tells its peer with a Jingle session-info first);
   * `lost`: Janus lost the session (it restarted): nothing is asked of it but the destroy (the call goes on
   * in a new session, which publishes clones of the same tracks)
   */
  close(options?: CloseOptions): Promise<void>;
  /** p2p, the guest's side: opens the Jingle session toward the agent who answered (`peer`: full JID) */
  connectPeer?(peer: string, display: string): void;
  peerConnections(): { publisher?: RTCPeerConnection; subscriber?: RTCPeerConnection; screen?: RTCPeerConnection };
}

/** The p2p transport's options (callMethod p2p; docs/protocol.md "p2p"). */
export interface P2POptions {
  jingle: JinglePort;
  role: 'initiator' | 'responder';
  /** responder: the bare JID of the call's guest (the only session accepted) */
  expect?: string;
  /** responder: the guest's display (its username), the name its feed and its leaving carry */
  expectDisplay?: string;
  /** the first wait before a failed session-initiate is sent again (growing, at most 2 s); 500 ms by default */
  retryDelayMs?: number;
  /** how long a new camera's first frames may take to be encoded (cameraGuard.ts); 4 s by default */
  probeMs?: number;
  /** the browser's getUserMedia (device changes); navigator's by default */
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** the noise suppressor (media/noise/suppression.ts); RNNoise's by default */
  suppressNoise?: SuppressNoise;
}

/** The media transport's options: Janus's, or (a p2p call, the server's grant says so) the Jingle peer's. */
export type MediaTransportOptions = MediaSessionOptions & { p2p?: P2POptions };

/** What the console asks of a standby Janus session (media/standby.ts). */
export interface StandbyRequest {
  /** the ICE servers of now (the answer hands the session those of its own time) */
  iceServers: RTCIceServer[];
  /** the agent's standby token (POST /api/console/media/standby) */
  token: () => Promise<MediaStandbyAnswer>;
  /** told when the next answer needs nothing more made (a session is ready, or calls are p2p), and when it does */
  onReady?: (ready: boolean) => void;
  /**
   * Whether a standby session is still wanted (calls wait, the agent is free): asked before a session is
   * made again by itself, after a failure's pause or a lost session.
   */
  wanted?: () => boolean;
}
