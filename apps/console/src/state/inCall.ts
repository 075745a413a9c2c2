// The in-call and transfer parts of the console's one store (state/store.ts `inCall`, `transfers`): the
// desk's call status (docs/protocol.md "Call status": chat, unread count, the guest's mute, screen share,
// zoom), the calls a supervisor may join, this console's own volume and speaker choices; data only (the desk
// itself is reached through useDesk, state/agentActions.ts). state/deskSnapshot.ts fills them from its snapshots.
import type { CallStatus, QueueEntry } from '@lobby/call';
import type { IncomingTransfer } from '@lobby/contracts';

/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

export interface AgentInCallState {
  status: CallStatus | null;
  localScreen: MediaStream | null;
  /** the active call is on hold */
  held: boolean;
  /** calls other agents are in, which this console user may join (a supervisor): the desk's own entries */
  runningCalls: readonly QueueEntry[];
  /** each participant's volume (0–1) by feed display, this console's own choice; 1 when unset */
  volumes: Readonly<Record<string, number>>;
  /** the speaker (audio output deviceId) the call plays through, this console's own choice; '' = default */
  speakerId: string;
}

export const initialAgentInCall: AgentInCallState = {
  status: null,
  localScreen: null,
  held: false,
  runningCalls: NONE,
  volumes: {},
  speakerId: '',
};

/** Transfers (docs/protocol.md "Transfer"): the calls handed to this agent (the desk's methods: useDesk). */
export interface TransferState {
  incoming: readonly IncomingTransfer[];
}

export const initialTransfers: TransferState = { incoming: NONE };
