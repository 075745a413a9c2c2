/**
 * The end of the guest's call (docs/protocol.md "End"): by the guest (its hang-up), by the agent, when the
 * last agent left, or failed (media lost, the p2p agent unreachable: `failed` at once, not `ended` first,
 * so the guest app shows why). The teardown takes the call's media, camera and screen at once and clears
 * the snapshot, then closes the media session (destroying the room when the guest ends it, which ends the
 * call for every agent) and leaves the guest's room; the end's timestamps go until the server has them
 * (timestampDelivery.ts). The engine hands in its call room, its room presence and its timestamps' delivery.
 */
import { UNKNOWN_QUALITY } from '../media/networkQuality.ts';
import type { CallRoom } from '../room/callRoom.ts';
import type { EndReason, GuestCallSnapshot } from './guestSnapshot.ts';
import type { GuestRoomPresence } from './roomPresence.ts';
import type { TimestampDelivery } from './timestampDelivery.ts';

export interface CallEndOptions {
  room: Pick<CallRoom, 'takeAll' | 'dispose'>;
  presence: Pick<GuestRoomPresence, 'stopFollowingVisibility' | 'leaveAfterCall'>;
  delivery: Pick<TimestampDelivery, 'deliver'>;
  read: () => GuestCallSnapshot;
  write: (patch: Partial<GuestCallSnapshot>) => void;
}

export class CallEnd {
  readonly #options: CallEndOptions;

  constructor(options: CallEndOptions) {
    this.#options = options;
  }

  /** The call ends for `reason` (a call ended or failed already is left as it is). */
  async end(reason: EndReason): Promise<void> {
    const { callId, phase } = this.#options.read();
    // a failed call is over already (its own end control comes back to us from the room)
    if (!callId || phase === 'ended' || phase === 'failed') return;
    this.#options.write({ phase: 'ended', endReason: reason });
    await this.teardown(reason);
    const flags = reason === 'guest' ? (['guest_exit_timestamp', 'call_ended_timestamp'] as const) : (['call_ended_timestamp'] as const);
    this.#options.delivery.deliver(callId, [...flags]);
  }

  /** The call `callId` failed with `code` (the snapshot's error), unless another call is on or it ended. */
  async fail(callId: string, code: string): Promise<void> {
    const call = this.#options.read();
    if (call.callId !== callId || call.phase === 'ended') return;
    this.#options.write({ phase: 'failed', error: code, endReason: 'error' });
    await this.teardown('error');
    this.#options.delivery.deliver(callId, ['call_ended_timestamp']);
  }

  /** Releases the call (also a call whose start failed: callStart.ts). */
  async teardown(reason: EndReason): Promise<void> {
    const { presence, read, write } = this.#options;
    presence.stopFollowingVisibility();
    // Take everything of this call now: closing the media session takes a while (up to the gateway's
    // destroy timeout), and "Call again" may start the next call meanwhile, whose camera, feeds and
    // presence this call's teardown must not touch.
    const endedCallId = read().callId;
    const taken = this.#options.room.takeAll();
    const { status } = read();
    write({
      mediaNotice: null,
      networkQuality: UNKNOWN_QUALITY,
      localStream: null,
      localScreen: null,
      remoteFeeds: [],
      status: {
        ...status,
        peers: [],
        peerCall: null,
        screenShare: false,
        isZoomed: false,
        mutedAudioJIDs: [],
        mutedVideoJIDs: [],
        streamsReady: { local: false, remote: false },
        connection: { ...status.connection, janus: false },
      },
    });
    // the guest owns the room: destroying it ends the call for every agent at once
    await this.#options.room.dispose(taken, { destroyRoom: reason === 'guest' || reason === 'error' });
    // the call is over: the guest leaves its room until its next call, unless that started meanwhile
    if (read().callId === endedCallId) presence.leaveAfterCall();
  }
}
