import type { CallStatus, NetworkQuality, RemoteFeed } from '@lobby/call';

/** What the call bar's toggles show, read from the engine's call status (docs/protocol.md "Call status"). */
export interface CallPanels {
  chatOpen: boolean;
  unread: number;
  devicesOpen: boolean;
  sharing: boolean;
}

/**
 * The call bar's panel and screen state from the engine's status (none before the call has one). Pure,
 * so that each app reads it from its store with one shallow-compared selector.
 */
export function callPanels(status: CallStatus | null | undefined): CallPanels {
  return {
    chatOpen: !!status?.isChatOpen,
    unread: status?.unreadMessages ?? 0,
    devicesOpen: !!status?.deviceConfigOpen,
    sharing: !!status?.screenShare,
  };
}

/** The stage's part of the engine's call status: who is large, the zoom, the panels, the others' mutes. */
export interface CallStageStatus {
  mainUser: string | null;
  zoomed: boolean;
  chatOpen: boolean;
  devicesOpen: boolean;
  /** the displays or JIDs whose microphone / camera is off */
  mutedAudio: readonly string[];
  mutedVideo: readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);

/** The stage's state from the engine's status, for one shallow-compared selector in each app. */
export function callStageStatus(status: CallStatus | null | undefined): CallStageStatus {
  return {
    mainUser: status?.mainUser ?? null,
    zoomed: !!status?.isZoomed,
    chatOpen: !!status?.isChatOpen,
    devicesOpen: !!status?.deviceConfigOpen,
    mutedAudio: status?.mutedAudioJIDs ?? NONE,
    mutedVideo: status?.mutedVideoJIDs ?? NONE,
  };
}

/** Our own media and the others' as both apps' stores hold them (each fed by its engine's snapshots). */
export interface CallMediaState {
  localStream: MediaStream | null;
  remoteFeeds: readonly RemoteFeed[];
  audioMuted: boolean;
  videoMuted: boolean;
  networkQuality: NetworkQuality;
}

/** The call's media from an app's store, for one shallow-compared selector. */
export function callMedia<S extends CallMediaState>(state: S): CallMediaState {
  const { localStream, remoteFeeds, audioMuted, videoMuted, networkQuality } = state;
  return { localStream, remoteFeeds, audioMuted, videoMuted, networkQuality };
}
