// Runs the state chart (chart.ts) against the store: the gate's checks, and the call's events.
// No React here; the screens only read the store and call CallActions. This is the one place that
// changes the store's `screen` (show()): every screen change is the chart's answer to a fact or an event.
import type { Company } from '../api/company.ts';
import type { GuestStore } from '../state/store.ts';
import type { Screen } from '../state/screens.ts';
import { gate, journeyAt, transition, type GateFacts, type JourneyEvent, type JourneyState } from './chart.ts';
import { automationAllowed, browserCheck, isAutomated, isOpen, readPosition, type Position } from './checks.ts';

/** What the gate's checks need from the outside world; tests pass fakes. */
export interface GateServices {
  browser: () => ReturnType<typeof browserCheck>;
  automated: () => boolean;
  now: () => Date;
  position: () => Promise<Position>;
  /** PUT /geo-fence/check: true inside; any failure counts as outside (docs/guest-journey.md). */
  insideZone: (position: Position) => Promise<boolean>;
  /** POST /form-submission/get-submission: true when the welcome form must be filled; an error also means required. */
  formRequired: () => Promise<boolean>;
}

export const browserGateServices = (remote: Pick<GateServices, 'insideZone' | 'formRequired'>): GateServices => ({
  browser: () => browserCheck(),
  automated: () => isAutomated(),
  now: () => new Date(),
  position: () => readPosition(),
  ...remote,
});

export function initialFacts(company: Company, automated: boolean, now: Date): GateFacts {
  return {
    activated: company.activated,
    automated,
    allowAutomation: automationAllowed(company.allowAutomation),
    open: isOpen(company.schedule, now),
    // The server opens a call only after this guest's successful geofence check whenever the company requests
    // location (its zones or its locationOfService, or none: then every position passes).
    needsLocation: !!company.requestLocation,
    needsForm: !!company.welcomeForm && !!company.forms?.welcome,
    previewScreen: !!company.previewScreen,
    previewDone: false,
  };
}

/** The store's view of the call part of the chart. */
function currentState(store: GuestStore): JourneyState {
  const s = store.getState();
  return {
    ...journeyAt(s.screen),
    answered: s.callStartedAt !== null,
    endReason: s.endReason,
    unsupportedReason: s.unsupportedReason,
  };
}

/** Shows the screen the chart decided. */
function show(store: GuestStore, screen: Screen): void {
  if (store.getState().screen !== screen) store.setState({ screen });
}

/** Applies one call event; returns the new state (unchanged object when the event did not apply). */
export function sendEvent(store: GuestStore, event: JourneyEvent): JourneyState {
  const before = currentState(store);
  const company = store.getState().company;
  const after = transition(before, event, {
    showRatingPage: !!company?.showRatingPage,
    previewScreen: !!company?.previewScreen,
  });
  if (after === before) return before;
  const s = store.getState();
  if (after.screen === 'ongoing' && s.callStartedAt === null) s.setCallStartedAt(Date.now());
  if (after.screen !== 'ongoing' && after.screen !== 'waiting') s.resetCall();
  if (after.screen === 'waiting' && !s.waitingSince) s.setWaitingSince(Date.now());
  s.setEndReason(after.endReason);
  if (after.unsupportedReason) s.setUnsupportedReason(after.unsupportedReason);
  show(store, after.screen);
  return after;
}

/**
 * Without the gate's services (dev fixtures, tests): the chart's gate with every check passed, so only
 * an inactive company stops the guest.
 */
export function showWithoutChecks(store: GuestStore): void {
  const company = store.getState().company;
  if (!company) return;
  const decision = gate({
    ...initialFacts(company, false, new Date()),
    browser: null,
    open: true,
    needsLocation: false,
    needsForm: false,
    previewScreen: false,
  });
  if ('screen' in decision) show(store, decision.screen);
}

export interface GateRun {
  facts: GateFacts;
}

/**
 * Runs the gate from the start: checks in the chart's order until a screen is decided, and shows it.
 * `previewDone` carries over when the guest already went through the preview.
 */
export async function runGate(store: GuestStore, services: GateServices, options: { previewDone?: boolean } = {}): Promise<GateFacts | null> {
  const company = store.getState().company;
  if (!company) return null;
  const facts: GateFacts = { ...initialFacts(company, services.automated(), services.now()), previewDone: !!options.previewDone };
  for (let guard = 0; guard < 8; guard++) {
    const decision = gate(facts);
    if ('screen' in decision) {
      const s = store.getState();
      s.setFormRequired(decision.form === true);
      if (decision.reason) s.setUnsupportedReason(decision.reason);
      show(store, decision.screen);
      return facts;
    }
    switch (decision.check) {
      case 'browser':
        facts.browser = services.browser();
        break;
      case 'location': {
        store.getState().setChecking('location');
        try {
          const position = await services.position();
          store.getState().setPosition(position);
          facts.location = (await services.insideZone(position)) ? 'inside' : 'outside';
        } catch {
          // no permission, no fix within 10 s, or the check failed: the guest cannot be placed inside
          facts.location = 'outside';
        } finally {
          store.getState().setChecking(null);
        }
        break;
      }
      case 'form':
        store.getState().setChecking('form');
        try {
          facts.formRequired = await services.formRequired();
        } catch {
          facts.formRequired = true;
        } finally {
          store.getState().setChecking(null);
        }
        break;
    }
  }
  return facts;
}
