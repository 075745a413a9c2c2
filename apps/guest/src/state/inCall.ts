// The in-call part of the guest's one store (state/store.ts `inCall`): the engine's call status
// (docs/protocol.md "Call status": chat, unread, mutes, screen share, zoom, peers), our shared screen and
// the engine's in-call methods. Only types come from the engine here, so nothing heavy loads with the first
// screen; features/call/engineCallActions.ts feeds it from the engine's snapshots.
import type { CallStatus } from '@lobby/call';

/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

/** What the in-call UI may ask of the engine. */
export interface InCallEngine {
  sendChat(body: string): void;
  sendFile(file: File): Promise<void>;
  /** a chat file read with the guest's token, to show through a blob: URL */
  fetchFile(url: string): Promise<Blob>;
  setChatOpen(open: boolean): void;
  setZoomed(zoomed: boolean): void;
  startScreenShare(): Promise<void>;
  stopScreenShare(): Promise<void>;
  changeDevices(choice: { audioDeviceId?: string; videoDeviceId?: string; backCam?: boolean }): Promise<void>;
  setDeviceConfigOpen(open: boolean): void;
  setCallVolume(volume: number): void;
  setMainUser(jid: string): void;
}

export interface InCallState {
  status: CallStatus | null;
  localScreen: MediaStream | null;
  /** the chosen speaker (audiooutput device id), '' for the default */
  sinkId: string;
  engine: InCallEngine | null;
}

export const initialInCall: InCallState = { status: null, localScreen: null, sinkId: '', engine: null };
