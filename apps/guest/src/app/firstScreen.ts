// The guest's first screen sent in the page (docs/architecture.md "The guest page"): one decision and one
// starting store, shared by the server's render (entry-server.tsx) and the app that takes the page over
// (main.tsx), so that both render the same markup.
import type { Company } from '../api/company.ts';
import type { GuestData, Language, Screen } from '../state/store.ts';
import { gate, type UnsupportedReason } from '../journey/chart.ts';
import { initialFacts } from '../journey/controller.ts';
import { visibleAssignments } from '../journey/assignments.ts';
import { readWidgetContext } from '../features/widget/context.ts';
import { parseRoute } from './route.ts';

/** What the gate's synchronous checks read: the browser's support, whether it is automated, the time. */
export interface FirstScreenEnv {
  browser: UnsupportedReason | null;
  automated: boolean;
  now: Date;
}

/** The screens a page can carry: the gate's first screens that need nothing but the company and the time. */
export type FirstScreenName = Extract<Screen, 'selection' | 'preview'>;

/**
 * The screen the gate (journey/chart.ts) goes straight to, when it is the selection screen or the preview
 * screen (the camera starts once the app runs): the company active and open, no location check, no
 * welcome form. Null for any other screen, or when a check needs the network or the guest (location,
 * form): only the app can decide then.
 */
export function firstScreenOf(company: Company, env: FirstScreenEnv): FirstScreenName | null {
  const decision = gate({ ...initialFacts(company, env.automated, env.now), browser: env.browser });
  if (!('screen' in decision) || decision.form) return null;
  return decision.screen === 'selection' || decision.screen === 'preview' ? decision.screen : null;
}

/**
 * Whether a page at `url` may carry its first screen: the call page at `/` (not an appointment's, not a
 * page the app does not know), and not the widget's (docs/widget.md), whose website may choose the
 * language and the topic once the app runs.
 */
export function pageMayCarryFirstScreen(url: string): boolean {
  const route = parseRoute(url);
  return route.kind === 'call' && route.reference === null && readWidgetContext(new URL(url, 'http://localhost').search) === null;
}

/** The store as bootstrap.ts (applyCompany), the call page (`?webview=true`) and the gate leave it on that screen. */
export function firstScreenState(company: Company, language: Language, screen: FirstScreenName, url: string): Partial<GuestData> {
  const assignments = visibleAssignments(company);
  return {
    company,
    language,
    phase: 'ready',
    screen,
    formRequired: false,
    webview: parseRoute(url).webview,
    assignmentId: assignments.length === 1 && assignments[0] ? assignments[0].id : null,
  };
}
