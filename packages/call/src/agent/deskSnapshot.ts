/**
 * The agent desk's public shapes (agentDesk.ts): its phases, the call it is in, its snapshot, which the
 * console renders (and the one it starts with), and its options.
 */
import type { IncomingTransfer } from '@lobby/contracts';
import type { ConsoleApi } from '../api/consoleApi.ts';
import type { MediaNotice } from '../media/mediaHealth.ts';
import type { RemoteFeed } from '../media/mediaSession.ts';
import { UNKNOWN_QUALITY, type NetworkQuality } from '../media/networkQuality.ts';
import type { CallPorts } from '../room/ports.ts';
import { initialCallStatus, type CallStatus } from '../state/callStatus.ts';
import type { QueueEntry } from './waitingQueue.ts';
import type { CallKind } from '../presence.ts';

export type AgentPhase = 'offline' | 'connecting' | 'idle' | 'joining' | 'inCall';

export interface ActiveCall {
  callId: string;
  room: string;
  guestNick: string;
  startedAt: number;
  callType: CallKind;
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
  /**
   * The guest of our call is changing page on the website (docs/widget.md "Moving between pages"): from
   * the moment its page goes until its next page's camera reaches us (agent/guestPageChange.ts)
   */
  guestChangingPage: boolean;
}

/** The desk's snapshot before it starts: offline, nothing listed, no call. */
export function initialAgentSnapshot(): AgentSnapshot {
  return {
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
    guestChangingPage: false,
  };
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
  /**
   * Sound first on a weak line (docs/protocol.md "Line steps"): off until its journey on the shaped line
   * passes (a step back up from audioOnly still costs about a second of audio)
   */
  lineSteps?: boolean;
  /** our microphone noise-suppressed (docs/architecture.md "Noise suppression"): on by default for agents */
  noiseSuppression?: boolean;
  /** the console user's company (uploads) */
  companyId?: number;
  /** signalling, media transport, devices, clock and page (src/room/ports.ts); the real ones by default */
  ports?: Partial<CallPorts>;
}
