/**
 * The guest's page going (docs/widget.md "Moving between pages"): the website's next page takes the call
 * back (`change`: the agents hear Navigating, the call stays open and its resume is handed to the next
 * page), the website says its page is about to go (`leaving`, its beforeunload: Navigating while this page
 * can still send it, its own status again if it stays after all), or the page is left (`hide`: the call
 * ends with the tab). Whichever it is, what the server has not acknowledged yet (timestampDelivery.ts)
 * outlives the page. The engine hands in its clock, its room presence and its timestamps' delivery.
 */
import type { CallKind } from '../presence.ts';
import type { ClockPort } from '../room/ports.ts';
import type { ResumedCall } from './callStart.ts';
import type { GuestRoomPresence } from './roomPresence.ts';
import type { GuestCallSnapshot } from './guestSnapshot.ts';
import type { TimestampDelivery } from './timestampDelivery.ts';

/** A page that said Navigating and is still here this much later was not replaced after all. */
export const NAVIGATION_CANCELLED_MS = 5000;

/** The call handed to the website's next page (GuestCall.call's resume, with its kind). */
export type LeftCall = ResumedCall & { kind: CallKind };

export interface PageLeavingOptions {
  clock: ClockPort;
  presence: Pick<GuestRoomPresence, 'announce' | 'announceNavigating'>;
  delivery: Pick<TimestampDelivery, 'flush'>;
  call: () => Pick<GuestCallSnapshot, 'phase' | 'callId' | 'initialCallId' | 'callKind'>;
}

export class PageLeaving {
  readonly #options: PageLeavingOptions;

  constructor(options: PageLeavingOptions) {
    this.#options = options;
  }

  /**
   * The website's next page takes the call back: the agents see the guest navigating, not leaving, and
   * the call stays open. Answers the call to resume, or null (no call to keep: the page is left, `hide`).
   */
  change(): LeftCall | null {
    const { callId, initialCallId, callKind, phase } = this.#options.call();
    if (!callId || (phase !== 'waiting' && phase !== 'ongoing') || !this.#options.presence.announceNavigating()) {
      this.hide();
      return null;
    }
    this.#options.delivery.flush();
    return { callId, initialCallId: initialCallId ?? callId, kind: callKind, answered: phase === 'ongoing' };
  }

  /**
   * The website is about to replace its page (its `beforeunload`): the agents hear Navigating while this
   * page can still send it. A page that stays after all says its own status again NAVIGATION_CANCELLED_MS later.
   */
  leaving(): void {
    const { phase } = this.#options.call();
    if (phase !== 'waiting' && phase !== 'ongoing') return;
    const { presence } = this.#options;
    if (presence.announceNavigating()) this.#options.clock.setTimeout(() => presence.announce(), NAVIGATION_CANCELLED_MS);
  }

  /**
   * The page is left: the guest really leaves, and an open call ends with the tab. The keepalive requests
   * outlive the tab; with call_ended_timestamp the server destroys the call's room.
   */
  hide(): void {
    const { callId, phase } = this.#options.call();
    const open = callId && phase !== 'ended' && phase !== 'failed';
    this.#options.delivery.flush(open ? { callId, flags: ['guest_exit_timestamp', 'call_ended_timestamp'] } : undefined);
  }
}
