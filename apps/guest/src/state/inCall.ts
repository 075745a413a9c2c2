// The in-call part of the guest's one store (state/store.ts `inCall`): the engine's call status
// (docs/protocol.md "Call status": chat, unread, mutes, screen share, zoom, peers), our shared screen and the
// chosen speaker; data only (the engine itself is reached through useCallEngine, state/callActions.ts). Only
// types come from the engine here, so nothing heavy loads with the first screen; features/call/engineCallActions.ts
// feeds it from the engine's snapshots.
import type { CallStatus } from '@lobby/call';

/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

export interface InCallState {
  status: CallStatus | null;
  localScreen: MediaStream | null;
  /** the chosen speaker (audiooutput device id), '' for the default */
  sinkId: string;
}

export const initialInCall: InCallState = { status: null, localScreen: null, sinkId: '' };
