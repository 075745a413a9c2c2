/**
 * The guest engine's public shapes (guestCall.ts): its phases, its snapshot, which the guest app renders,
 * and its options.
 */
import type { GuestApi } from '../api/guestApi.ts';
import type { MediaNotice } from '../media/mediaHealth.ts';
import type { CallStage, RemoteFeed } from '../media/mediaSession.ts';
import { UNKNOWN_QUALITY, type NetworkQuality } from '../media/networkQuality.ts';
import type { WatermarkOptions } from '../media/watermark.ts';
import type { CallPorts } from '../room/ports.ts';
import { initialCallStatus, type CallStatus } from '../state/callStatus.ts';
import type { CallKind } from '../presence.ts';

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
  callKind: CallKind;
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
  /**
   * This page takes back the call of the website's previous page (docs/widget.md "Moving between pages"):
   * from the resume's start until the call waits again or its agent's media reaches this page (callTakeBack.ts)
   */
  takingCallBack: boolean;
}

/** The snapshot of a guest engine that has done nothing yet. */
export function initialGuestSnapshot(): GuestCallSnapshot {
  return {
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
    takingCallBack: false,
  };
}

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
  /** the widget's call page in its panel: the website's next page takes its call back (LobbyPresenceElement) */
  pageChanges?: boolean;
  recordCalls?: boolean;
  webview?: boolean;
  /**
   * Sound first on a weak line (docs/protocol.md "Line steps"): off until its journey on the shaped line
   * passes (a step back up from audioOnly still costs about a second of audio)
   */
  lineSteps?: boolean;
  /** our microphone noise-suppressed (docs/architecture.md "Noise suppression"): off by default for guests */
  noiseSuppression?: boolean;
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
