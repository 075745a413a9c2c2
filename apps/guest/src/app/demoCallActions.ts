// Screen-only CallActions for the dev fixtures and the app's tests: they move through the journey's
// chart and flip flags, without a call engine or a server.
import type { CallActions } from '../state/callActions.ts';
import type { GuestStore } from '../state/store.ts';
import { sendEvent } from '../journey/controller.ts';
import { toggleLocalTracks } from '@lobby/ui';

/** Placeholder actions: they only change screens and flags. Replaced when the call engine is wired. */
export function demoCallActions(store: GuestStore): CallActions {
  const s = () => store.getState();
  return {
    startCall(kind) {
      s().setCallType(kind);
      sendEvent(store, { type: 'CALL' });
    },
    cancel() {
      sendEvent(store, { type: 'ENDED', by: 'guest' });
    },
    hangup: () => {
      sendEvent(store, { type: 'ENDED', by: 'guest' });
    },
    toggleAudio: () => s().setAudioMuted(toggleLocalTracks(s().localStream, 'audio', s().audioMuted)),
    toggleVideo: () => s().setVideoMuted(toggleLocalTracks(s().localStream, 'video', s().videoMuted)),
    callAgain() {
      sendEvent(store, { type: 'CALL_AGAIN' });
    },
    confirmPreview() {
      sendEvent(store, { type: 'PREVIEW_DONE' });
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
      sendEvent(store, { type: 'FORM_DONE' });
      return Promise.resolve();
    },
    book: (booking) =>
      Promise.resolve({ reference: 'demo', link: '/appointment/demo', startsAt: booking.startsAt, durationMinutes: 30, callType: booking.callType }),
    chooseDevices(devices) {
      s().setDevices(devices);
    },
  };
}

