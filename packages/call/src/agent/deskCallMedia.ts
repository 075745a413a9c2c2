/**
 * The desk entering and leaving its call's media (an answer, a transfer taken, a supervisor's join, a
 * resume after hold). Entering makes the call the active one with a fresh status, then joins its media room
 * and publishes (mediaJoin.ts: the subscription to the guest, the guest's camera leaving, a session lost or
 * moved to another node); a join that fails leaves again with its error. Leaving takes everything of the
 * call at once and clears it from the snapshot, so that the next call answered meanwhile is not touched by
 * this one's teardown, which is slow (up to the gateway's destroy timeout).
 */
import type { ActiveCall } from './deskSnapshot.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { initialCallStatus } from '../state/callStatus.ts';
import { UNKNOWN_QUALITY } from '../media/networkQuality.ts';
import { joinCallMedia, type LeaveReason, type MediaJoinOptions } from './mediaJoin.ts';

export interface DeskCallMediaOptions extends Omit<MediaJoinOptions, 'leaveCall'> {
  /** the desk's signalling session (null while offline): leaving goes back to idle while it is connected */
  signalling: () => SignallingPort | null;
  /** the call is being left (a hand-over under way is cancelled unless the reason is that hand-over) */
  leaving: (reason: LeaveReason) => void;
  /** our microphone or camera was muted in the call just left: the room is told it is not any more */
  unmuted: (room: string) => void;
}

export class DeskCallMedia {
  readonly #o: DeskCallMediaOptions;

  constructor(options: DeskCallMediaOptions) {
    this.#o = options;
  }

  /**
   * Enters a call (answered, taken over by transfer, or joined as a supervisor): it becomes the active
   * call with a fresh status, then we join its media room and publish; a failure leaves it again.
   * `entered` runs once the call is active, before its media is joined.
   */
  async enter(call: Omit<ActiveCall, 'startedAt'>, video: boolean, xmpp: SignallingPort, entered?: () => void): Promise<void> {
    this.#o.write({
      phase: 'joining',
      activeCall: { ...call, startedAt: this.#o.ports.clock.now() },
      error: null,
      lastEnded: null,
      status: { ...initialCallStatus(), callStarted: true },
      localScreen: null,
    });
    entered?.();
    try {
      await this.join(call.callId, video, call.guestNick, xmpp);
    } catch (error) {
      await this.leave('error');
      this.#o.write({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Joins a call's media room and publishes camera and microphone (mediaJoin.ts). */
  join(callId: string, video: boolean, guestNick: string, xmpp: SignallingPort): Promise<void> {
    return joinCallMedia({ ...this.#o, leaveCall: (reason) => this.leave(reason) }, callId, video, guestNick, xmpp);
  }

  /** Leaves the active call (none: nothing to do): the snapshot is cleared at once, then its media closed. */
  async leave(reason: LeaveReason): Promise<void> {
    const o = this.#o;
    o.leaving(reason);
    const active = o.read().activeCall;
    if (!active) return;
    const taken = o.room.takeAll();
    const { muted } = o.read();
    const wasMuted = muted.audio || muted.video;
    o.write({
      phase: o.signalling()?.connected ? 'idle' : 'offline',
      mediaNotice: null,
      networkQuality: UNKNOWN_QUALITY,
      activeCall: null,
      remoteFeeds: [],
      lastEnded: { callId: active.callId, reason },
      localStream: null,
      localScreen: null,
      muted: { audio: false, video: false },
    });
    if (wasMuted) o.unmuted(active.room);
    await o.room.dispose(taken);
  }
}
