// What the screens' buttons do. The UI never runs call logic itself: it calls these handlers, injected
// through context. The call engine (packages/call) provides the real implementation
// (features/call/engineCallActions.ts); the dev fixtures use app/demoCallActions.ts. The engine itself is
// reached through here too (useCallEngine), never through the store, which holds data only.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type * as engine from '@lobby/call';
import type { FormAnswers, GuestSession } from '../api/guest.ts';
import type { BookingCreate, GuestBooking } from '@lobby/contracts';

/**
 * A call started on an earlier page, taken back by this one (docs/widget.md "Moving between pages"): the
 * engine's ResumedCall (callId, initialCallId, answered) and what this page needs besides.
 */
export interface ResumedCall extends engine.ResumedCall {
  assignmentId: number | null;
  /** its report, for the rating after it */
  reportId: number | null;
  /** epoch ms when the guest started waiting / the call was answered: the clocks go on from there */
  waitingSince?: number | null;
  callStartedAt?: number | null;
}

export interface RatingAnswer {
  /** 1–5. */
  score: number;
  comment: string;
  /** Answers of the company's rating form (advanceRating). */
  answers?: FormAnswers;
}

/** What the in-call UI may ask of the engine: its own methods (packages/call GuestCall). */
export type GuestCallEngine = Pick<
  engine.GuestCall,
  | 'sendChat'
  | 'sendFile'
  | 'fetchFile'
  | 'setChatOpen'
  | 'setZoomed'
  | 'startScreenShare'
  | 'stopScreenShare'
  | 'changeDevices'
  | 'setNoiseSuppression'
  | 'setDeviceConfigOpen'
  | 'setCallVolume'
  | 'setMainUser'
>;

export interface CallActions {
  /**
   * Selection screen: call with video or voice (assignment already in the store). `resume`: the call the
   * website's previous page carried over (features/widget/carriedCall.ts), taken back instead of a new one.
   */
  startCall(kind: engine.CallKind, resume?: ResumedCall): void | Promise<void>;
  /** Waiting screen: stop waiting for an agent. */
  cancel(): void | Promise<void>;
  /** Ongoing screen: end the call. */
  hangup(): void | Promise<void>;
  /** The website's page is about to be replaced: the agents hear the guest is navigating (docs/widget.md). */
  pageLeaving?(): void;
  /**
   * The website moves the call into a new window (↗): this page hands it over as to a next page and
   * answers it (with the guest id) for the window, or null when there is no call to move.
   */
  moveOut?(): Promise<(ResumedCall & { kind: engine.CallKind; companyId: number; guestId: string }) | null>;
  /** Mute/unmute the microphone. */
  toggleAudio(): void;
  /** Camera off/on. */
  toggleVideo(): void;
  /** Abandoned/outofzone/rating-done screens: back to the start. */
  callAgain(): void | Promise<void>;
  /** Preview screen: devices are fine, go on to the selection screen. */
  confirmPreview(): void | Promise<void>;
  /** Rating screen: send the rating; rejects when it was not stored (the screen offers to send again). */
  submitRating(answer: RatingAnswer): void | Promise<void>;
  /** inCall screen: take the call over into this tab. */
  takeOver(): void | Promise<void>;
  /** The guest's API session (registers on first use); null when there is no server (demo). */
  session(): Promise<GuestSession | null>;
  /** Welcome form: send the answers; the selection screen then shows the call buttons. */
  submitWelcomeForm(formId: number | string, answers: FormAnswers): Promise<void>;
  /**
   * Book a time instead of waiting (docs/guest-journey.md "Booking a time instead"). A waiting guest's
   * call is named in the booking (reported as booked) and then left.
   */
  book(booking: Omit<BookingCreate, 'call_id'>): Promise<GuestBooking>;
  /** Preview screen: the camera and microphone the guest chose. */
  chooseDevices(devices: { video?: string | null; audio?: string | null }): void;
  /** The call engine for the in-call UI (null until it is made; none in the demo). */
  engine?(): GuestCallEngine | null;
  /** Tells `listener` each time engine() changes; returns the unsubscribe. */
  onEngine?(listener: () => void): () => void;
}

export const CallActionsContext = createContext<CallActions | null>(null);

export function useCallActions(): CallActions {
  const actions = useContext(CallActionsContext);
  if (!actions) throw new Error('useCallActions must be used inside <CallActionsContext.Provider>');
  return actions;
}

/** The call engine for the in-call UI (null until it is made); re-renders when it is made. */
export function useCallEngine(): GuestCallEngine | null {
  const actions = useCallActions();
  const subscribe = useCallback((listener: () => void) => actions.onEngine?.(listener) ?? (() => undefined), [actions]);
  const current = useCallback(() => actions.engine?.() ?? null, [actions]);
  return useSyncExternalStore(subscribe, current);
}
