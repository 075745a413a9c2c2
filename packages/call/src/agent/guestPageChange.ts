/**
 * What the agent is told while the guest of its call changes page on the website (docs/widget.md "Moving
 * between pages"): `guestChangingPage` is on from the moment the guest's page goes — its presence says
 * Navigating, or a guest changing page (Navigating said, or the widget's panel, `pageChanges`) leaves the
 * call's room or its camera leaves the media room — until a camera of the guest's next page reaches the
 * agent. A page that said Navigating and stays after all (its own status again, neither its presence nor
 * its camera gone) turns it off, and so does the call ending (NAVIGATION_RETURN_MS without the guest).
 * The desk tells it what it hears and reads it from each snapshot it makes.
 */
import type { RemoteFeed } from '../media/mediaSession.ts';
import type { RoomPresence } from '../xmpp/session.ts';

interface Going {
  callId: string;
  guestNick: string;
  /** the guest's cameras the agent had when its page went, less those that left since */
  oldFeeds: Set<string>;
  /** its presence or a camera of it left: only a camera of its next page ends the page change */
  gone: boolean;
}

/** The call and what the agent receives of it, as the desk's snapshot has them. */
interface CallView {
  activeCall: { callId: string; guestNick: string } | null;
  remoteFeeds: RemoteFeed[];
}

export class GuestPageChange {
  #going: Going | null = null;

  /**
   * The guest's presence in our call's room. `changesPage`: its leaving is a page change (it said
   * Navigating, or it is the widget's panel).
   */
  onPresence(view: CallView, presence: RoomPresence, changesPage: boolean): void {
    const status = presence.available ? presence.info.status : '';
    if (!presence.available && changesPage) this.pageGoing(view, true);
    else if (status === 'Navigating') this.pageGoing(view, false);
    // the page said Navigating and stayed (docs/widget.md: its own status again a few seconds later)
    else if (status && this.#going && !this.#going.gone) this.#going = null;
  }

  /** The guest's page goes; `gone`: its presence or its camera left already. */
  pageGoing(view: CallView, gone: boolean): void {
    const call = view.activeCall;
    if (!call) return;
    if (this.#going?.callId !== call.callId) {
      const oldFeeds = new Set(view.remoteFeeds.filter((f) => f.display === call.guestNick).map((f) => f.feedId));
      this.#going = { callId: call.callId, guestNick: call.guestNick, oldFeeds, gone };
    } else if (gone) this.#going.gone = true;
  }

  /** Whether the agent is told the guest is changing page, with the call and the feeds of `view`. */
  changing(view: CallView): boolean {
    const going = this.#going;
    if (!going) return false;
    if (view.activeCall?.callId !== going.callId) {
      this.#going = null;
      return false;
    }
    const guestFeeds = view.remoteFeeds.filter((f) => f.display === going.guestNick).map((f) => f.feedId);
    // a camera of the page that went has left (p2p: the next page's comes back under the same id)
    for (const feedId of going.oldFeeds) {
      if (!guestFeeds.includes(feedId)) {
        going.oldFeeds.delete(feedId);
        going.gone = true;
      }
    }
    if (guestFeeds.some((feedId) => !going.oldFeeds.has(feedId))) {
      this.#going = null;
      return false;
    }
    return true;
  }
}
