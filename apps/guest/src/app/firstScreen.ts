// The guest's first screen sent in the page (docs/architecture.md "The guest page"): one decision and one
// starting store, shared by the server's render (entry-server.tsx) and the app that takes the page over
// (main.tsx), so that both render the same markup.
import type { Company } from '../api/company.ts';
import type { GuestData, Language } from '../state/store.ts';
import { gate, type UnsupportedReason } from '../journey/chart.ts';
import { initialFacts } from '../journey/controller.ts';
import { visibleAssignments } from '../journey/assignments.ts';

/** What the gate's synchronous checks read: the browser's support, whether it is automated, the time. */
export interface FirstScreenEnv {
  browser: UnsupportedReason | null;
  automated: boolean;
  now: Date;
}

/**
 * Whether the gate (journey/chart.ts) goes straight to the selection screen: the company active and open,
 * no location check, no welcome form, no preview screen. Any check that needs the network or the guest
 * (location, form) makes it false: only the app can decide then.
 */
export function selectionAtOnce(company: Company, env: FirstScreenEnv): boolean {
  const decision = gate({ ...initialFacts(company, env.automated, env.now), browser: env.browser });
  return 'screen' in decision && decision.screen === 'selection' && !decision.form;
}

/** The store as bootstrap.ts (applyCompany) and the gate leave it on the selection screen. */
export function firstScreenState(company: Company, language: Language): Partial<GuestData> {
  const assignments = visibleAssignments(company);
  return {
    company,
    language,
    phase: 'ready',
    screen: 'selection',
    formRequired: false,
    assignmentId: assignments.length === 1 && assignments[0] ? assignments[0].id : null,
  };
}
