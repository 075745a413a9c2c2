// The in-call and transfer parts of the console's one store (state/store.ts `inCall`, `transfers`): the
// desk's call status (docs/protocol.md "Call status": chat, unread count, the guest's mute, screen share,
// zoom), the calls a supervisor may join, this console's own volume and speaker choices, and the desk's
// methods. Only types come from the engine here; state/deskSnapshot.ts fills them from its snapshots.
import type { CallStatus } from '@lobby/call';
import type { IncomingTransfer } from '@lobby/contracts';

/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

export interface AgentInCallEngine {
  /** a new picture of the console user, announced at once in the guests' rooms */
  setProfileImageUrl(url: string | null): void;
  sendChat(body: string): void;
  sendFile(file: File): Promise<void>;
  setChatOpen(open: boolean): void;
  setZoomed(zoomed: boolean): void;
  startScreenShare(): Promise<void>;
  stopScreenShare(): Promise<void>;
  hold(): Promise<void>;
  resume(): void;
  join(callId: string): Promise<void>;
  changeDevices(choice: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void>;
  setDeviceConfigOpen(open: boolean): void;
  setMainUser(display: string): void;
}

/** A call another agent is in, which this console user may join (a supervisor). */
export interface RunningCall {
  callId: string;
  guestName: string;
  assignmentName: string;
}

export interface AgentInCallState {
  status: CallStatus | null;
  localScreen: MediaStream | null;
  /** the active call is on hold */
  held: boolean;
  runningCalls: readonly RunningCall[];
  /** each participant's volume (0–1) by feed display, this console's own choice; 1 when unset */
  volumes: Readonly<Record<string, number>>;
  /** the speaker (audio output deviceId) the call plays through, this console's own choice; '' = default */
  speakerId: string;
  engine: AgentInCallEngine | null;
}

export const initialAgentInCall: AgentInCallState = {
  status: null,
  localScreen: null,
  held: false,
  runningCalls: NONE,
  volumes: {},
  speakerId: '',
  engine: null,
};

/** Transfers (docs/protocol.md "Transfer"): the calls handed to this agent and the desk's transfer methods. */
export interface TransferEngine {
  transferTargets(): Promise<{
    agents: Array<{ id: number; name: string; jid: string }>;
    assignments: Array<{ id: number; name: string }>;
  }>;
  transfer(to: { toUserId: number } | { assignmentId: number }): Promise<void>;
  acceptTransfer(id: number): Promise<void>;
}

export interface TransferState {
  incoming: readonly IncomingTransfer[];
  engine: TransferEngine | null;
}

export const initialTransfers: TransferState = { incoming: NONE, engine: null };
