// The guest journey as a state chart (docs/guest-journey.md): pure functions, no React, no I/O.
//
// Two parts:
// - `gate(facts)`: the checks between "company loaded" and "the guest may call", in a fixed order.
//   Given what is known so far it answers either the screen to show or the next check to run; the
//   runner (`runGate` in journey/controller.ts) runs that check, adds its result to the facts and asks again.
// - `transition(state, event)`: the call itself (selection → waiting → ongoing → rating/abandoned …).
import type { Screen } from '../state/screens.ts';

/** Why the unsupported screen shows. */
export type UnsupportedReason = 'insecure' | 'browser' | 'media' | 'network';
/** Why the abandoned screen shows. */
export type EndReason = 'ended' | 'noAnswer' | 'cancelled' | 'failed' | 'unknownAppointment';

/** What the gate knows. `undefined` = not checked yet. */
export interface GateFacts {
  activated: boolean;
  /** navigator.webdriver (an automated browser). */
  automated: boolean;
  /** The deployment lets automated browsers call (tests). */
  allowAutomation: boolean;
  /** WebRTC, media devices and internet (docs/guest-journey.md "Browser checks…"); null = all fine. */
  browser?: UnsupportedReason | null;
  /** Inside opening hours (always true without a schedule). */
  open: boolean;
  /** requestLocation is on and the company has a service area. */
  needsLocation: boolean;
  location?: 'inside' | 'outside';
  /** welcomeForm is on and the company has a welcome form. */
  needsForm: boolean;
  /** get-submission says the form must be filled (true) or is done (false). */
  formRequired?: boolean;
  previewScreen: boolean;
  previewDone: boolean;
}

export type GateCheck = 'browser' | 'location' | 'form';
export type GateDecision = { screen: Screen; reason?: UnsupportedReason; form?: boolean } | { check: GateCheck };

/**
 * The pre-call gate, first match wins:
 * inactive → bot → unsupported → schedule → outofzone → preview → selection (with the welcome form first
 * when required).
 */
export function gate(f: GateFacts): GateDecision {
  if (!f.activated) return { screen: 'inactive' };
  if (f.automated && !f.allowAutomation) return { screen: 'bot' };
  if (f.browser === undefined) return { check: 'browser' };
  if (f.browser !== null) return { screen: 'unsupported', reason: f.browser };
  if (!f.open) return { screen: 'schedule' };
  if (f.needsLocation) {
    if (f.location === undefined) return { check: 'location' };
    if (f.location === 'outside') return { screen: 'outofzone' };
  }
  if (f.needsForm && f.formRequired === undefined) return { check: 'form' };
  const form = f.needsForm && f.formRequired === true;
  if (f.previewScreen && !f.previewDone && !form) return { screen: 'preview' };
  return { screen: 'selection', form };
}

/** Where the call part of the journey is. */
export interface JourneyState {
  screen: Screen;
  /** Whether an agent answered the current call (decides rating vs abandoned). */
  answered: boolean;
  endReason: EndReason | null;
  unsupportedReason: UnsupportedReason | null;
  /** rating screen: the thank-you part after sending or skipping. */
  rated: boolean;
}

export type JourneyEvent =
  | { type: 'CALL' }
  | { type: 'REPORT'; status: 'ok' | 'outOfQuota' | 'blocked' }
  | { type: 'ANSWERED' }
  /** The call ended; `by` guest (hang-up or cancel) or the other side / the server. */
  | { type: 'ENDED'; by: 'guest' | 'agent' }
  /** Nobody answered within the waiting limit. */
  | { type: 'NO_ANSWER' }
  | { type: 'FAILED'; disabledCamera?: boolean; unknownAppointment?: boolean }
  | { type: 'RATED' }
  | { type: 'CALL_AGAIN' }
  /** Another tab of this guest holds a call. */
  | { type: 'OTHER_TAB_IN_CALL' }
  | { type: 'TAKE_OVER' }
  /** The guest is done with the preview screen: on to the call buttons. */
  | { type: 'PREVIEW_DONE' }
  /** The welcome form was sent: the gate goes on (the preview when the company has one). */
  | { type: 'FORM_DONE' };

export interface JourneyOptions {
  showRatingPage: boolean;
  /** the company shows the preview screen before the call buttons */
  previewScreen?: boolean;
}

export function journeyAt(screen: Screen): JourneyState {
  return { screen, answered: false, endReason: null, unsupportedReason: null, rated: false };
}

const IN_CALL: ReadonlySet<Screen> = new Set(['waiting', 'ongoing']);

/** One step of the call part. Events that do not apply in a state leave it unchanged (same object). */
export function transition(state: JourneyState, event: JourneyEvent, options: JourneyOptions): JourneyState {
  const { screen } = state;
  switch (event.type) {
    case 'CALL':
      if (screen !== 'selection' && screen !== 'preview') return state;
      return { ...journeyAt('waiting') };
    case 'REPORT':
      if (screen !== 'waiting') return state;
      if (event.status === 'ok') return state;
      return journeyAt(event.status);
    case 'ANSWERED':
      if (screen !== 'waiting') return state;
      return { ...state, screen: 'ongoing', answered: true };
    case 'ENDED':
      if (!IN_CALL.has(screen)) return state;
      if (state.answered) {
        return options.showRatingPage
          ? { ...journeyAt('rating'), answered: true }
          : { ...journeyAt('abandoned'), answered: true, endReason: 'ended' };
      }
      return { ...journeyAt('abandoned'), endReason: event.by === 'guest' ? 'cancelled' : 'noAnswer' };
    case 'NO_ANSWER':
      if (screen !== 'waiting') return state;
      return { ...journeyAt('abandoned'), endReason: 'noAnswer' };
    case 'FAILED':
      if (event.disabledCamera) return { ...journeyAt('unsupported'), unsupportedReason: 'media' };
      // a wrong appointment link is known before any call: say so wherever the guest is
      if (event.unknownAppointment) return { ...journeyAt('abandoned'), endReason: 'unknownAppointment' };
      if (!IN_CALL.has(screen) && screen !== 'selection' && screen !== 'preview') return state;
      return { ...journeyAt('abandoned'), endReason: 'failed' };
    case 'RATED':
      if (screen !== 'rating') return state;
      return { ...state, rated: true };
    case 'CALL_AGAIN':
      if (screen !== 'abandoned' && screen !== 'rating' && screen !== 'outofzone') return state;
      return journeyAt('selection');
    case 'OTHER_TAB_IN_CALL':
      // this tab is not in a call itself: it must not start a second one for the same guest
      if (IN_CALL.has(screen) || screen === 'inCall') return state;
      if (screen !== 'selection' && screen !== 'preview') return state;
      return journeyAt('inCall');
    case 'TAKE_OVER':
      if (screen !== 'inCall') return state;
      return journeyAt('selection');
    case 'PREVIEW_DONE':
      if (screen !== 'preview') return state;
      return journeyAt('selection');
    case 'FORM_DONE':
      // the gate shows the form on the selection screen before the preview (gate(): `form` skips it)
      if (screen !== 'selection' || !options.previewScreen) return state;
      return journeyAt('preview');
    default:
      return state;
  }
}
