/**
 * The desk's streams coming back (docs/protocol.md "XMPP reconnection"): the server's event stream back
 * after a loss rejoins the rooms (calls opened meanwhile were never announced), and the guest of our call
 * away from its room (it left, or its connection dropped) is waited for GUEST_RETURN_MS before the call
 * ends: a guest that reconnects is back within its backoff (at most 10 s, plus the connect); one that
 * really left ends the call sooner through the media. While our own stream is down nothing is decided:
 * the rejoin looks again. The desk hands in its clock.
 */
import type { ClockPort } from '../room/ports.ts';

/** How long a call waits for its guest to come back to the room (its reconnect backoff, 10 s, and more). */
export const GUEST_RETURN_MS = 20_000;
/**
 * How long the agent waits for a navigating guest (docs/widget.md "Moving between pages"): the next page
 * loads, registers, joins and publishes, which a busy phone or network can stretch past a few seconds.
 */
export const NAVIGATION_RETURN_MS = 45_000;

export interface ReconnectionOptions {
  clock: ClockPort;
  /** the event stream's state as the desk shows it (`live`) */
  live: () => boolean;
  setLive: (live: boolean) => void;
  rejoinRooms: () => void;
  /** our call (its id), while there is one */
  activeCallId: () => string | null;
  signallingConnected: () => boolean;
  guestInRoom: (call: { room: string; guestNick: string }) => boolean;
  /** the guest did not come back: the call ends */
  guestGone: () => void;
}

export class Reconnection {
  readonly #options: ReconnectionOptions;
  /** the server's event stream was lost since it last opened: calls opened meanwhile were not announced */
  #liveLost = false;

  constructor(options: ReconnectionOptions) {
    this.#options = options;
  }

  /** The server's event stream opened or closed. */
  onLive(live: boolean): void {
    if (!live && this.#options.live()) this.#liveLost = true;
    this.#options.setLive(live);
    if (live && this.#liveLost) {
      this.#liveLost = false;
      this.#options.rejoinRooms();
    }
  }

  /**
   * The guest of our call is not in its room: the call ends if it is still away after GUEST_RETURN_MS,
   * or NAVIGATION_RETURN_MS when its page said it is being replaced (`navigating`).
   */
  awaitGuest(call: { callId: string; room: string; guestNick: string }, navigating = false): void {
    const { clock, activeCallId, signallingConnected, guestInRoom, guestGone } = this.#options;
    clock.setTimeout(() => {
      if (activeCallId() !== call.callId || !signallingConnected()) return;
      if (!guestInRoom(call)) guestGone();
    }, navigating ? NAVIGATION_RETURN_MS : GUEST_RETURN_MS);
  }
}
