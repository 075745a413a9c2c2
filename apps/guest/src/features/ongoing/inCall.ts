// The in-call state the ongoing screen needs beyond the app store: the engine's call status (SPEC.md §3
// "Call status": chat, unread count, mute lists, screen share, zoom) and the in-call actions. The guest
// app binds its GuestCall once (engineCallActions); only types come from the engine here, so nothing
// heavy is loaded with the first screen.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { CallStatus, GuestCall, GuestCallSnapshot } from '@lobby/call';

/** What the in-call UI may ask of the engine. */
/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

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

export const inCallStore = createStore<InCallState>(() => ({
  status: null,
  localScreen: null,
  sinkId: '',
  engine: null,
}));

/** Binds the guest's call engine: its snapshots feed the in-call UI, its methods serve it. */
export function bindGuestCall(call: GuestCall): () => void {
  const apply = (snap: GuestCallSnapshot) =>
    inCallStore.setState({ status: snap.status, localScreen: snap.localScreen });
  inCallStore.setState({ engine: call });
  apply(call.snapshot);
  return call.on('change', apply);
}

export function useInCall<T>(selector: (state: InCallState) => T): T {
  return useStore(inCallStore, selector);
}
