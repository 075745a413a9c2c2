/**
 * Call status (docs/protocol.md "Call status"), with its transitions as pure functions.
 * The field names are the protocol's, so logs and error reports read the same as the documentation.
 */

export interface Peer {
  peerJID: string;
  janusId: string;
  username: string;
  /** the name the peer announced in its room presence (Lobby's addition; docs/protocol.md) */
  name?: string;
  profileImageUrl?: string;
  filesFetchToken?: string;
}

export interface ChatEntry {
  id: string;
  /** the sender: a JID when known, else the room nick */
  from: string;
  /** the sender's room nick (guest username, or the agent's user part) */
  nick: string;
  body: string;
  at: number;
  mine: boolean;
  /** an uploaded file (POST /api/upload/{type}): shown as a link, or a preview for images */
  file?: { url: string; name: string; kind: 'image' | 'document' };
}

export interface CallStatus {
  peerCall: 'Resumed' | 'Paused' | null;
  peerVideo: boolean;
  OnHoldCount: number;
  pageVisible: boolean;
  janusSessionEnded: boolean;
  peers: Peer[];
  callStarted: boolean;
  /** epoch ms of the session start (docs/protocol.md "Session start") */
  callInitiated: number | null;
  mainUser: string | null;
  mutedVideoJIDs: string[];
  mutedAudioJIDs: string[];
  /**
   * the step our camera is sent at on our line (media/lineSteps.ts, docs/protocol.md "Line steps"), and the
   * others' whose line paused their video (`audioOnly`) or made it smaller (`reduced`), from their presence
   */
  lineStep: 'full' | 'reduced' | 'audioOnly';
  weakLineJIDs: { jid: string; step: 'reduced' | 'audioOnly' }[];
  isChatOpen: boolean;
  deviceConfigOpen: boolean;
  deviceConfigChanged: boolean;
  isZoomed: boolean;
  isBackCam: boolean;
  callVolume: number;
  unreadMessages: number;
  /** newest first */
  chatMessages: ChatEntry[];
  screenShare: boolean;
  streamsReady: { local: boolean; remote: boolean };
  notificationAllowed: boolean;
  connection: { janus: boolean; xmpp: boolean };
  assignmentGroup: number | null;
  appointment: { reference: string; id: string; agent: { jabberusername: string } } | null;
}

export function initialCallStatus(): CallStatus {
  return {
    peerCall: null,
    peerVideo: false,
    OnHoldCount: 0,
    pageVisible: true,
    janusSessionEnded: false,
    peers: [],
    callStarted: false,
    callInitiated: null,
    mainUser: null,
    mutedVideoJIDs: [],
    mutedAudioJIDs: [],
    lineStep: 'full',
    weakLineJIDs: [],
    isChatOpen: false,
    deviceConfigOpen: false,
    deviceConfigChanged: false,
    isZoomed: false,
    isBackCam: false,
    callVolume: 1,
    unreadMessages: 0,
    chatMessages: [],
    screenShare: false,
    streamsReady: { local: false, remote: false },
    notificationAllowed: false,
    connection: { janus: false, xmpp: false },
    assignmentGroup: null,
    appointment: null,
  };
}

/** A remote stream arrived (the peer call becomes Resumed: docs/protocol.md "Media session"). */
export function peerJoined(state: CallStatus, peer: Peer, hasVideo: boolean): CallStatus {
  const others = state.peers.filter((p) => p.janusId !== peer.janusId);
  return {
    ...state,
    peerCall: 'Resumed',
    peerVideo: state.peerVideo || hasVideo,
    peers: [...others, peer],
    mainUser: state.mainUser ?? peer.peerJID,
    streamsReady: { ...state.streamsReady, remote: true },
  };
}

/** A peer's feed left the room. */
export function peerLeft(state: CallStatus, janusId: string): CallStatus {
  const peers = state.peers.filter((p) => p.janusId !== janusId);
  const gone = state.peers.find((p) => p.janusId === janusId);
  return {
    ...state,
    peers,
    mainUser: gone && state.mainUser === gone.peerJID ? (peers[0]?.peerJID ?? null) : state.mainUser,
    streamsReady: { ...state.streamsReady, remote: peers.length > 0 },
  };
}

/** Holding: the on-hold count goes up; peers and the muted lists are cleared ("Call status"). */
export function peerPaused(state: CallStatus): CallStatus {
  return {
    ...state,
    peerCall: 'Paused',
    OnHoldCount: state.OnHoldCount + 1,
    peers: [],
    mutedAudioJIDs: [],
    mutedVideoJIDs: [],
    weakLineJIDs: [],
    mainUser: null,
    streamsReady: { ...state.streamsReady, remote: false },
  };
}

/** A chat message arrived or was sent: newest first; unread counts only while the chat is closed. */
export function chatReceived(state: CallStatus, entry: ChatEntry): CallStatus {
  if (state.chatMessages.some((m) => m.id === entry.id)) return state;
  return {
    ...state,
    chatMessages: [entry, ...state.chatMessages],
    unreadMessages: entry.mine || state.isChatOpen ? state.unreadMessages : state.unreadMessages + 1,
  };
}

export function chatOpened(state: CallStatus, open: boolean): CallStatus {
  return { ...state, isChatOpen: open, unreadMessages: open ? 0 : state.unreadMessages };
}

export function mutedChanged(
  state: CallStatus,
  jid: string,
  kind: 'audio' | 'video',
  muted: boolean,
): CallStatus {
  const key = kind === 'audio' ? 'mutedAudioJIDs' : 'mutedVideoJIDs';
  const without = state[key].filter((j) => j !== jid);
  return { ...state, [key]: muted ? [...without, jid] : without };
}

/** Our own screen share started or stopped (docs/protocol.md "Media session"). */
export function screenShareChanged(state: CallStatus, sharing: boolean): CallStatus {
  return { ...state, screenShare: sharing };
}

/**
 * A remote screen appeared or went: a shared screen is shown large (isZoomed) while there is one.
 * `remoteScreens` is how many remote `-screen` feeds are received now.
 */
export function remoteScreensChanged(state: CallStatus, remoteScreens: number): CallStatus {
  return { ...state, isZoomed: remoteScreens > 0 };
}

/** Whether a Janus display names a screen publisher (`{display}-screen`). */
export function isScreenDisplay(display: string): boolean {
  return display.endsWith('-screen');
}

/** Images are previewed, everything else is a link. */
export function fileKind(name: string, url: string): 'image' | 'document' {
  return /\.(png|jpe?g|webp|gif)$/i.test(name) || /\.(png|jpe?g|webp|gif)$/i.test(url) ? 'image' : 'document';
}
