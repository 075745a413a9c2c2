// The in-call state the call area needs beyond the console store: the desk's call status (SPEC.md §3
// "Call status": chat, unread count, the guest's mute state, screen share, zoom) and the in-call
// actions. engineAgentActions binds its AgentDesk once; only types come from the engine here.
import { guestDisplayName } from '../desk/guestName.ts';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AgentDesk, AgentSnapshot, CallStatus } from '@lobby/call';

/** A stable empty list for selectors (a fresh [] each render would loop useSyncExternalStore). */
export const NONE: readonly never[] = Object.freeze([]);

export interface AgentInCallEngine {
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

export const agentInCallStore = createStore<AgentInCallState>(() => ({
  status: null,
  localScreen: null,
  held: false,
  runningCalls: NONE,
  volumes: {},
  speakerId: '',
  engine: null,
}));

export function bindAgentDesk(desk: AgentDesk): () => void {
  const apply = (snap: AgentSnapshot) =>
    agentInCallStore.setState({
      status: snap.status,
      localScreen: snap.localScreen,
      held: !!snap.activeCall?.held,
      runningCalls: sameCalls(agentInCallStore.getState().runningCalls, snap.runningCalls)
        ? agentInCallStore.getState().runningCalls
        : snap.runningCalls.map((c) => ({
            callId: c.callId,
            guestName: guestDisplayName(c.nick, c.lobby?.name),
            assignmentName: c.assignmentName ?? '',
          })),
    });
  agentInCallStore.setState({ engine: desk });
  apply(desk.snapshot);
  return desk.on('change', apply);
}

export function useAgentInCall<T>(selector: (state: AgentInCallState) => T): T {
  return useStore(agentInCallStore, selector);
}

function sameCalls(a: readonly RunningCall[], b: readonly { callId: string }[]): boolean {
  return a.length === b.length && a.every((c, i) => c.callId === b[i]?.callId);
}
