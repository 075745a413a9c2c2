// A call carried from one page of the website to the next (docs/widget.md "Moving between pages"). The
// widget's call page in a frame goes with the website's page; instead of ending its call, it says
// Navigating (GuestCall.pageChange) and leaves the call here, in this tab's sessionStorage of the Lobby
// origin (partitioned by the website, so only that website's next page sees it). The next page's widget
// opens its panel with `resume=1`, and that call page takes the call back while the server and the agent
// still wait for it.
import type { CallKind } from '@lobby/call';
import type { ResumedCall } from '../../state/callActions.ts';
import { readWidgetContext } from './context.ts';

export interface CarriedCall extends ResumedCall {
  kind: CallKind;
  companyId: number;
  /** epoch ms when the page went */
  at: number;
}

const KEY = 'lobby.widget.carriedCall';
/**
 * A carried call older than this is not taken back: the agent waits 45 s for a navigating guest's media
 * (the agent desk's NAVIGATION_RETURN_MS), and the next page still has to register and publish. A page
 * takes seconds to come on a busy phone; the server takes back a guest stamped gone that rejoins.
 */
export const CARRY_MS = 35_000;

/** Only the widget's call page in a frame hands its call over: a new window outlives the website's pages. */
export function carriesCalls(search: string = window.location.search): boolean {
  return window.parent !== window && readWidgetContext(search) !== null;
}

export function carryCall(call: Omit<CarriedCall, 'at'>): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...call, at: Date.now() } satisfies CarriedCall));
  } catch {
    // storage refused (the browser blocks a third-party frame's storage): the call ends with the page
  }
}

/** The call the previous page left, once (it is removed), when this page was opened to take it back. */
export function takeCarriedCall(companyId: number, search: string = window.location.search, now = Date.now()): CarriedCall | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return null;
  }
  if (!raw || new URLSearchParams(search).get('resume') !== '1') return null;
  const call = JSON.parse(raw) as Partial<CarriedCall> | null;
  if (!call || typeof call.callId !== 'string' || typeof call.initialCallId !== 'string') return null;
  if (call.kind !== 'video' && call.kind !== 'voice') return null;
  if (call.companyId !== companyId || typeof call.at !== 'number' || now < call.at) return null;
  if (now - call.at > CARRY_MS) {
    // kept with the page's diagnostics: why a visitor's call did not come back
    console.warn(`widget: the previous page's call came ${now - call.at} ms ago, too late to take back`);
    return null;
  }
  console.info(`widget: taking back the previous page's call ${call.callId} (${now - call.at} ms after it went)`);
  return call as CarriedCall;
}
