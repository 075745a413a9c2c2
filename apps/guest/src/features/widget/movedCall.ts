// A call moved from the website's panel into a new window (↗, docs/widget.md "Into a new window"). The
// framed call page hands its call over as a page change does (GuestCall.pageChange: the agents hear
// Navigating, the call stays open) and gives it, with its guest id, to the loader; the loader opens this
// window at the call page with the call in its fragment (`#lobby-move=…`, never sent to a server). The
// window's storage is the Lobby origin's own, not the panel's (the browser partitions a framed page's
// storage by the website): here the call is written where the page change's machinery reads it
// (carriedCall.ts), and the page takes the call back with `resume=1`. The guest id is kept in this
// window's sessionStorage only (movedGuestId): it is the panel's guest for this window, and never replaces
// the guest id the visitor's own Lobby pages keep (a page could open this window with any id).
import { carryCall, type CarriedCall } from './carriedCall.ts';
import { readWidgetContext } from './context.ts';

/** What the panel's call page hands to the new window. */
export interface MovedCall extends Omit<CarriedCall, 'at'> {
  guestId: string;
}

const PARAM = 'lobby-move';
const GUEST_ID_KEY = 'lobby.widget.movedGuestId';
const GUEST_ID = /^[0-9a-f]{32}$/;

/** The fragment the loader appends to the new window's address. */
export function movedCallFragment(call: MovedCall): string {
  return `${PARAM}=${encodeURIComponent(JSON.stringify(call))}`;
}

/**
 * Run first, before the engine reads the guest id: a widget window opened with a moved call adopts the
 * panel's guest and call, and its address loses the fragment and gains `resume=1`. Answers whether it did.
 */
export function adoptMovedCall(loc: Location = window.location): boolean {
  const hash = new URLSearchParams(loc.hash.slice(1)).get(PARAM);
  if (!hash || window.parent !== window || !readWidgetContext(loc.search)) return false;
  const url = new URL(loc.href);
  url.hash = '';
  let call: Partial<MovedCall> | null = null;
  try {
    call = JSON.parse(hash) as Partial<MovedCall> | null;
  } catch {
    call = null;
  }
  if (!call || typeof call.guestId !== 'string' || !GUEST_ID.test(call.guestId) || typeof call.companyId !== 'number') {
    history.replaceState(null, '', url);
    return false;
  }
  const { guestId, ...carried } = call as MovedCall;
  try {
    sessionStorage.setItem(GUEST_ID_KEY, guestId);
  } catch {
    // no storage: the call cannot be the panel's guest's here; the window starts afresh
    history.replaceState(null, '', url);
    return false;
  }
  carryCall(carried);
  url.searchParams.set('resume', '1');
  history.replaceState(null, '', url);
  console.info(`widget: the panel's call ${carried.callId} moved into this window`);
  return true;
}

/** The panel's guest id, in a window its call was moved into (adoptMovedCall); null anywhere else. */
export function movedGuestId(): string | null {
  try {
    const id = sessionStorage.getItem(GUEST_ID_KEY);
    return id && GUEST_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}
