// The console's one state owner: a zustand vanilla store. Screens read it through hooks (useConsoleStore,
// useAgentInCall, useTransfers); the agent engine (packages/call, AgentDesk) feeds it from its snapshots
// through one mapping (state/deskSnapshot.ts). It lives in state/, not app/, so that features import it
// without reaching back into the app's root.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { createContext, useContext } from 'react';
import type { ConsoleUser } from '../api/console.ts';
import { initialAgentInCall, initialTransfers, type AgentInCallState, type TransferState } from './inCall.ts';
// the value from its own module: @lobby/call's index brings StanzaJS's element definitions into the first load
import { UNKNOWN_QUALITY } from '@lobby/call/networkQuality';
import type { ActiveCall, MediaNotice, NetworkQuality, QueueEntry, RemoteFeed } from '@lobby/call';

export type Language = 'en' | 'ar';
export type Availability = 'available' | 'away';
/** 'unknown' while GET /api/console/me restores a session on load. */
export type SessionState = 'unknown' | 'anonymous' | 'authenticated';
/** Login failure, as a translation key suffix (login.error.<code>). */
export type LoginError = 'invalid' | 'rateLimited' | 'network' | 'unknown';

/** The call the agent is in: the desk's own (its ActiveCall), with what the console shows of it. */
export type ConsoleCall = ActiveCall & {
  /** what the agent calls the guest: the name it announced, else its label (state/guestName.ts) */
  guestName: string;
  assignmentName: string;
  /** the call timer's start (epoch ms): media first flowing, kept through hold and resume; null while connecting */
  talkingSince: number | null;
};

export interface ConsoleData {
  session: SessionState;
  user: ConsoleUser | null;
  companyName: string | null;
  language: Language;
  availability: Availability;
  /** the guests waiting, as the desk lists them (its own entries), longest wait first */
  queue: QueueEntry[];
  activeCall: ConsoleCall | null;
  /** The answered call that just ended: the agent may write a note on it (features/call/WrapUpNote). */
  wrapUp: { callId: string; guestName: string } | null;
  localStream: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  audioMuted: boolean;
  videoMuted: boolean;
  loginPending: boolean;
  loginError: LoginError | null;
  /** Last operational error shown as a banner (translation key suffix or message). */
  error: string | null;
  /** the server's event stream is open (new calls and round-robin offers reach this console) */
  live: boolean;
  /** the next answer needs nothing more made ahead (a standby media session is ready, or the calls are p2p) */
  mediaReady: boolean;
  /** the active call as the desk reports it, and this console's choices for it (state/inCall.ts) */
  inCall: AgentInCallState;
  /** calls handed to this agent and the transfer methods (state/inCall.ts) */
  transfers: TransferState;
  /** the media server waited for or reconnected to, or a network cut, during a call (features/call/MediaNotice) */
  mediaNotice: MediaNotice;
  /** the guest of the active call is changing page on the website (features/call/MediaNotice, docs/widget.md) */
  guestChangingPage: boolean;
  /** the line's quality in the active call (the engine's measure, shown by @lobby/ui NetworkQuality) */
  networkQuality: NetworkQuality;
}

export interface ConsoleActions {
  /** Logged in or restored: user set, session authenticated. `null`: logged out / no session. */
  setSession: (user: ConsoleUser | null) => void;
  setCompanyName: (name: string | null) => void;
  setLanguage: (language: Language) => void;
  setAvailability: (availability: Availability) => void;
  setLoginPending: (pending: boolean) => void;
  setLoginError: (error: LoginError | null) => void;
  /** Replace the whole queue. */
  setQueue: (queue: QueueEntry[]) => void;
  /** Add or replace (same callId) one waiting guest. */
  upsertQueueEntry: (entry: QueueEntry) => void;
  removeQueueEntry: (callId: string) => void;
  setActiveCall: (call: ConsoleCall | null) => void;
  setWrapUp: (wrapUp: { callId: string; guestName: string } | null) => void;
  setLocalStream: (stream: MediaStream | null) => void;
  setStreams: (local: MediaStream | null, remotes: RemoteFeed[]) => void;
  setAudioMuted: (muted: boolean) => void;
  setVideoMuted: (muted: boolean) => void;
  setError: (error: string | null) => void;
  /** This console's volume for one participant (by feed display), 0–1. */
  setVolume: (display: string, volume: number) => void;
  /** The speaker the call plays through ('' = default). */
  setSpeakerId: (speakerId: string) => void;
  /** Forget the active call and its media (keeps queue, session, availability). */
  resetCall: () => void;
}

export type ConsoleState = ConsoleData & ConsoleActions;
export type ConsoleStore = StoreApi<ConsoleState>;

export const initialConsoleData: ConsoleData = {
  session: 'unknown',
  user: null,
  companyName: null,
  language: 'en',
  availability: 'available',
  queue: [],
  activeCall: null,
  wrapUp: null,
  localStream: null,
  remoteFeeds: [],
  audioMuted: false,
  videoMuted: false,
  loginPending: false,
  loginError: null,
  error: null,
  live: false,
  mediaReady: false,
  inCall: initialAgentInCall,
  transfers: initialTransfers,
  mediaNotice: null,
  guestChangingPage: false,
  networkQuality: UNKNOWN_QUALITY,
};

/** Queue order: longest waiting first (then by call id, for a stable order). */
export function sortQueue(queue: readonly QueueEntry[]): QueueEntry[] {
  return [...queue].sort((a, b) => a.since - b.since || a.callId.localeCompare(b.callId));
}

export function createConsoleStore(initial: Partial<ConsoleData> = {}): ConsoleStore {
  return createStore<ConsoleState>()((set) => ({
    ...initialConsoleData,
    ...initial,
    setSession: (user) =>
      set(
        user
          ? { user, session: 'authenticated', loginError: null }
          : {
              user: null,
              session: 'anonymous',
              companyName: null,
              queue: [],
              activeCall: null,
              wrapUp: null,
            },
      ),
    setCompanyName: (companyName) => set({ companyName }),
    setLanguage: (language) => set({ language }),
    setAvailability: (availability) => set({ availability }),
    setLoginPending: (loginPending) => set({ loginPending }),
    setLoginError: (loginError) => set({ loginError }),
    setQueue: (queue) => set({ queue: sortQueue(queue) }),
    upsertQueueEntry: (entry) =>
      set((s) => ({ queue: sortQueue([...s.queue.filter((q) => q.callId !== entry.callId), entry]) })),
    removeQueueEntry: (callId) => set((s) => ({ queue: s.queue.filter((q) => q.callId !== callId) })),
    setActiveCall: (activeCall) => set({ activeCall }),
    setWrapUp: (wrapUp) => set({ wrapUp }),
    setLocalStream: (localStream) => set({ localStream }),
    setStreams: (localStream, remoteFeeds) => set({ localStream, remoteFeeds }),
    setAudioMuted: (audioMuted) => set({ audioMuted }),
    setVideoMuted: (videoMuted) => set({ videoMuted }),
    setError: (error) => set({ error }),
    setVolume: (display, volume) =>
      set((s) => ({ inCall: { ...s.inCall, volumes: { ...s.inCall.volumes, [display]: volume } } })),
    setSpeakerId: (speakerId) => set((s) => ({ inCall: { ...s.inCall, speakerId } })),
    resetCall: () =>
      set({ activeCall: null, localStream: null, remoteFeeds: [], audioMuted: false, videoMuted: false }),
  }));
}

export const ConsoleStoreContext = createContext<ConsoleStore | null>(null);

export function useConsoleStoreApi(): ConsoleStore {
  const store = useContext(ConsoleStoreContext);
  if (!store) throw new Error('useConsoleStore must be used inside <ConsoleStoreContext.Provider>');
  return store;
}

/** Select from the console store. */
export function useConsoleStore<T>(selector: (state: ConsoleState) => T): T {
  return useStore(useConsoleStoreApi(), selector);
}

/** The hook the in-call components read through: a selector on the store's `inCall` part. */
export function useAgentInCall<T>(selector: (state: AgentInCallState) => T): T {
  return useConsoleStore((s) => selector(s.inCall));
}

/** The hook the transfer components read through: a selector on the store's `transfers` part. */
export function useTransfers<T>(selector: (state: TransferState) => T): T {
  return useConsoleStore((s) => selector(s.transfers));
}
