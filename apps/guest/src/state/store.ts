// The guest app's one state owner: a zustand vanilla store. The UI reads it through hooks (useGuestStore,
// useInCall); the call engine (packages/call) feeds it from its snapshots (features/call/engineCallActions.ts)
// and only the journey (journey/controller.ts, after journey/chart.ts) changes `screen`.
// It lives in state/, not app/, so that features import it without reaching back into the app's root.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { createContext, useContext } from 'react';
import type { Company } from '../api/company.ts';
import type { Screen } from './screens.ts';
import { initialInCall, type InCallState } from './inCall.ts';
// the value from its own module: @lobby/call's index brings StanzaJS's element definitions into the first load
import { UNKNOWN_QUALITY } from '@lobby/call/networkQuality';
import type { GuestBooking, WaitPlace } from '@lobby/contracts';
import type { CallKind, MediaNotice, NetworkQuality, RemoteFeed } from '@lobby/call';
import type { EndReason, UnsupportedReason } from '../journey/chart.ts';

export type { Screen } from './screens.ts';
export type Language = 'en' | 'ar';
/** Where the app is before a screen can show: fetching the company, or that failed. */
export type Phase = 'loading' | 'ready' | 'failed';

export interface AppError {
  /** Machine-readable code, e.g. 'company-load', 'disabledCamera'. */
  code: string;
  message?: string;
}

export interface GuestData {
  phase: Phase;
  company: Company | null;
  screen: Screen;
  language: Language;
  /** `?webview=true`: embedded in a native app's web view. */
  webview: boolean;
  /** Reference of `/appointment/:reference`, or null on "/". */
  appointmentReference: string | null;
  /** Kind of call chosen by the guest (or imposed by the company's callType). */
  callType: CallKind | null;
  /** Assignment chosen on the selection screen. */
  assignmentId: number | string | null;
  localStream: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  audioMuted: boolean;
  videoMuted: boolean;
  /** Epoch ms of the moment the agent joined (ongoing timer). */
  callStartedAt: number | null;
  /** Epoch ms of the moment the guest started waiting. */
  waitingSince: number | null;
  /** the guest's place in the queue and the estimate of its wait, as the server last told them (features/waiting) */
  waitPlace: WaitPlace | null;
  /** booking a time instead of waiting (features/booking): shown over the screen while set; the booking once made */
  booking: { booked: GuestBooking | null } | null;
  endReason: EndReason | null;
  unsupportedReason: UnsupportedReason | null;
  error: AppError | null;
  /** the media server is waited for or reconnected to, or a network cut (features/call/MediaNotice) */
  mediaNotice: MediaNotice;
  /** this page takes back the call of the website's previous page (features/call/MediaNotice, docs/widget.md) */
  takingCallBack: boolean;
  /** the line's quality in the call (the engine's measure, shown by @lobby/ui NetworkQuality) */
  networkQuality: NetworkQuality;
  /** The welcome form must be filled before calling (selection shows it first). */
  formRequired: boolean;
  /** The guest's position once read (guest auth `location`, strings). */
  position: { latitude: string; longitude: string } | null;
  /** A gate check under way (the loading screen says which). */
  checking: 'location' | 'form' | null;
  /** Camera chosen on the preview screen (deviceId), and whether it faces the user. */
  videoDeviceId: string | null;
  audioDeviceId: string | null;
  /** On the inCall screen: whether the tab holding the guest's session is in a call (else just open). */
  otherTabBusy: boolean;
  /** The call as the engine reports it (docs/protocol.md "Call status" in `status`); state/inCall.ts. */
  inCall: InCallState;
}

export interface GuestActions {
  /** Company details arrived: phase ready. Does not change the screen (see bootstrap). */
  setCompany: (company: Company) => void;
  /** Company details failed: phase failed with the error. */
  setLoadFailed: (error: AppError) => void;
  /** Back to the loading phase (retry). */
  setLoading: () => void;
  /** The company, keeping the phase (the gate is still deciding). */
  setCompanyOnly: (company: Company) => void;
  /** Phase ready (the gate decided the first screen). */
  setReady: () => void;
  setLanguage: (language: Language) => void;
  setWebview: (webview: boolean) => void;
  setAppointmentReference: (reference: string | null) => void;
  /** Remember the kind of call chosen. */
  setCallType: (kind: CallKind | null) => void;
  setAssignment: (id: number | string | null) => void;
  setLocalStream: (stream: MediaStream | null) => void;
  /** Add or replace (same feedId) a remote feed. */
  addRemoteFeed: (remote: RemoteFeed) => void;
  setRemoteFeeds: (remotes: RemoteFeed[]) => void;
  setAudioMuted: (muted: boolean) => void;
  setVideoMuted: (muted: boolean) => void;
  setCallStartedAt: (at: number | null) => void;
  setWaitingSince: (at: number | null) => void;
  setEndReason: (reason: EndReason | null) => void;
  setUnsupportedReason: (reason: UnsupportedReason | null) => void;
  setError: (error: AppError | null) => void;
  setFormRequired: (required: boolean) => void;
  setBooking: (booking: GuestData['booking']) => void;
  setPosition: (position: { latitude: string; longitude: string } | null) => void;
  setChecking: (checking: 'location' | 'form' | null) => void;
  setDevices: (devices: { video?: string | null; audio?: string | null }) => void;
  setOtherTabBusy: (busy: boolean) => void;
  /** The engine's latest in-call view (status, shared screen, methods); keeps what it does not name. */
  setInCall: (inCall: Partial<InCallState>) => void;
  setSinkId: (sinkId: string) => void;
  /** Forget everything of the last call (streams, flags, timers); keeps company, language, choices. */
  resetCall: () => void;
}

export type GuestState = GuestData & GuestActions;
export type GuestStore = StoreApi<GuestState>;

export const initialGuestData: GuestData = {
  phase: 'loading',
  company: null,
  screen: 'selection',
  language: 'en',
  webview: false,
  appointmentReference: null,
  callType: null,
  assignmentId: null,
  localStream: null,
  remoteFeeds: [],
  audioMuted: false,
  videoMuted: false,
  callStartedAt: null,
  waitingSince: null,
  waitPlace: null,
  booking: null,
  endReason: null,
  unsupportedReason: null,
  error: null,
  mediaNotice: null,
  takingCallBack: false,
  networkQuality: UNKNOWN_QUALITY,
  formRequired: false,
  position: null,
  checking: null,
  videoDeviceId: null,
  audioDeviceId: null,
  otherTabBusy: true,
  inCall: initialInCall,
};

/** A fresh store (one per app; tests make their own). */
export function createGuestStore(initial: Partial<GuestData> = {}): GuestStore {
  return createStore<GuestState>()((set) => ({
    ...initialGuestData,
    ...initial,
    setCompany: (company) => set({ company, phase: 'ready', error: null }),
    setLoadFailed: (error) => set({ phase: 'failed', error }),
    setLoading: () => set({ phase: 'loading', error: null }),
    setCompanyOnly: (company) => set({ company }),
    setReady: () => set({ phase: 'ready' }),
    setLanguage: (language) => set({ language }),
    setWebview: (webview) => set({ webview }),
    setAppointmentReference: (appointmentReference) => set({ appointmentReference }),
    setCallType: (callType) => set({ callType }),
    setAssignment: (assignmentId) => set({ assignmentId }),
    setLocalStream: (localStream) => set({ localStream }),
    addRemoteFeed: (remote) =>
      set((state) => ({
        remoteFeeds: [...state.remoteFeeds.filter((r) => r.feedId !== remote.feedId), remote],
      })),
    setRemoteFeeds: (remoteFeeds) => set({ remoteFeeds }),
    setAudioMuted: (audioMuted) => set({ audioMuted }),
    setVideoMuted: (videoMuted) => set({ videoMuted }),
    setCallStartedAt: (callStartedAt) => set({ callStartedAt }),
    setWaitingSince: (waitingSince) => set({ waitingSince }),
    setEndReason: (endReason) => set({ endReason }),
    setUnsupportedReason: (unsupportedReason) => set({ unsupportedReason }),
    setError: (error) => set({ error }),
    setFormRequired: (formRequired) => set({ formRequired }),
    setBooking: (booking) => set({ booking }),
    setPosition: (position) => set({ position }),
    setChecking: (checking) => set({ checking }),
    setDevices: (devices) =>
      set((state) => ({
        videoDeviceId: devices.video === undefined ? state.videoDeviceId : devices.video,
        audioDeviceId: devices.audio === undefined ? state.audioDeviceId : devices.audio,
      })),
    setOtherTabBusy: (otherTabBusy) => set({ otherTabBusy }),
    setInCall: (inCall) => set((state) => ({ inCall: { ...state.inCall, ...inCall } })),
    setSinkId: (sinkId) => set((state) => ({ inCall: { ...state.inCall, sinkId } })),
    resetCall: () =>
      set({
        localStream: null,
        remoteFeeds: [],
        audioMuted: false,
        videoMuted: false,
        callStartedAt: null,
        waitingSince: null,
        endReason: null,
      }),
  }));
}

export const GuestStoreContext = createContext<GuestStore | null>(null);

/** The store of the nearest <GuestStoreContext.Provider>. */
export function useGuestStoreApi(): GuestStore {
  const store = useContext(GuestStoreContext);
  if (!store) throw new Error('useGuestStore must be used inside <GuestStoreContext.Provider>');
  return store;
}

/** Select from the guest store; re-renders when the selected value changes. */
export function useGuestStore<T>(selector: (state: GuestState) => T): T {
  return useStore(useGuestStoreApi(), selector);
}

/** The hook the in-call components read through: a selector on the store's `inCall` part. */
export function useInCall<T>(selector: (state: InCallState) => T): T {
  return useGuestStore((s) => selector(s.inCall));
}

/** Like useGuestStore, but undefined outside a provider (screens shown before the store exists). */
export function useGuestStoreMaybe<T>(selector: (state: GuestState) => T): T | undefined {
  const store = useContext(GuestStoreContext);
  return useStore(store ?? fallbackStore, (state) => (store ? selector(state) : undefined));
}

const fallbackStore = createGuestStore();
