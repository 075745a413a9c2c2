// What the screens' buttons do. The UI never runs call logic itself: it calls these handlers, injected
// through context. The call engine (packages/call) provides the real implementation; until it is wired,
// `demoCallActions` only moves between screens.
import { createContext, useContext } from 'react';
import type { CallKind, GuestStore } from './store.ts';
import type { FormAnswers, GuestSession } from '../api/guest.ts';
import { sendEvent } from '../journey/controller.ts';

export interface RatingAnswer {
  /** 1–5. */
  score: number;
  comment: string;
  /** Answers of the company's rating form (advanceRating). */
  answers?: FormAnswers;
}

export interface CallActions {
  /** Selection screen: call with video or voice (assignment already in the store). */
  startCall(kind: CallKind): void | Promise<void>;
  /** Waiting screen: stop waiting for an agent. */
  cancel(): void | Promise<void>;
  /** Ongoing screen: end the call. */
  hangup(): void | Promise<void>;
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
  /** Preview screen: the camera and microphone the guest chose. */
  chooseDevices(devices: { video?: string | null; audio?: string | null }): void;
}

/** Placeholder actions: they only change screens and flags. Replaced when the call engine is wired. */
export function demoCallActions(store: GuestStore): CallActions {
  const s = () => store.getState();
  const afterCall = () => {
    const company = s().company;
    s().resetCall();
    if (company?.showRatingPage) s().setScreen('rating');
    else {
      s().setEndReason('ended');
      s().setScreen('abandoned');
    }
  };
  return {
    startCall(kind) {
      s().setCallType(kind);
      sendEvent(store, { type: 'CALL' });
    },
    cancel() {
      sendEvent(store, { type: 'ENDED', by: 'guest' });
    },
    hangup: () => {
      if (s().screen === 'ongoing') sendEvent(store, { type: 'ENDED', by: 'guest' });
      else afterCall();
    },
    toggleAudio() {
      const muted = !s().audioMuted;
      s().localStream?.getAudioTracks().forEach((track) => (track.enabled = !muted));
      s().setAudioMuted(muted);
    },
    toggleVideo() {
      const muted = !s().videoMuted;
      s().localStream?.getVideoTracks().forEach((track) => (track.enabled = !muted));
      s().setVideoMuted(muted);
    },
    callAgain() {
      sendEvent(store, { type: 'CALL_AGAIN' });
    },
    confirmPreview() {
      s().setScreen('selection');
    },
    submitRating() {
      // The rating screen shows its own thank-you once this resolves.
    },
    takeOver() {
      sendEvent(store, { type: 'TAKE_OVER' });
    },
    session: () => Promise.resolve(null),
    submitWelcomeForm() {
      s().setFormRequired(false);
      return Promise.resolve();
    },
    chooseDevices(devices) {
      s().setDevices(devices);
    },
  };
}

export const CallActionsContext = createContext<CallActions | null>(null);

export function useCallActions(): CallActions {
  const actions = useContext(CallActionsContext);
  if (!actions) throw new Error('useCallActions must be used inside <CallActionsContext.Provider>');
  return actions;
}
