/**
 * Hold and resume, the agent's side (docs/protocol.md "Hold and resume"). Holding tells the guest (a hold
 * control; p2p, a Jingle session-info <hold/> before the session ends), leaves the media room and stops
 * our camera; the call stays ours (activeCall.held). Resuming asks the guest to continue: it moves to a new
 * call id (linked by POST /call-report/hold-call) and announces CallResumed|agent|newCallId once it has
 * published there, and we follow it into that room once the hold's media teardown is over.
 */
import type { CallRoom } from '../room/callRoom.ts';
import type { ClockPort, SignallingPort } from '../room/ports.ts';
import type { CallStatus } from '../state/callStatus.ts';
import type { ActiveCall, AgentPhase } from './deskSnapshot.ts';

export interface DeskHoldOptions {
  clock: ClockPort;
  room: Pick<CallRoom, 'hold' | 'holding'>;
  signalling: () => SignallingPort | null;
  read: () => { activeCall: ActiveCall | null; status: CallStatus };
  write: (patch: { activeCall?: ActiveCall; phase?: AgentPhase; status?: CallStatus; muted?: { audio: boolean; video: boolean } }) => void;
  /** joins the resumed call's media room and publishes */
  joinMedia: (callId: string, video: boolean, guestNick: string, xmpp: SignallingPort) => Promise<void>;
  /** following the guest failed: the call ends with this error */
  failed: (error: unknown) => Promise<void>;
}

export class DeskHold {
  readonly #options: DeskHoldOptions;
  /** we asked the guest to resume, and follow its CallResumed */
  #resuming = false;

  constructor(options: DeskHoldOptions) {
    this.#options = options;
  }

  /** Holds our call; resolves once its media is torn down. */
  async hold(): Promise<void> {
    const { read, write, room } = this.#options;
    const active = read().activeCall;
    const xmpp = this.#options.signalling();
    if (!active || active.held || !xmpp) return;
    write({ activeCall: { ...active, held: true } });
    const holding = room.hold(
      (s) => ({ ...s, peerCall: 'Paused', OnHoldCount: s.OnHoldCount + 1, isZoomed: false }),
      () => xmpp.sendControl(active.room, { action: 'hold', callId: active.callId }),
      { hold: true }, // p2p: Jingle session-info <hold/> before the session ends
    );
    write({ muted: { audio: false, video: false } });
    await holding;
  }

  /** Asks the guest to resume our held call. */
  resume(): void {
    const active = this.#options.read().activeCall;
    const xmpp = this.#options.signalling();
    if (!active?.held || !xmpp) return;
    this.#resuming = true;
    xmpp.sendControl(active.room, { action: 'resume', callId: active.callId });
  }

  /** The guest announced CallResumed under `newCallId`: we follow it into that call's media room. */
  followResumed(newCallId: string): void {
    const { read, write, room } = this.#options;
    const active = read().activeCall;
    const xmpp = this.#options.signalling();
    if (!active?.held || !this.#resuming || !xmpp) return;
    this.#resuming = false;
    write({ phase: 'joining', activeCall: { ...active, callId: newCallId, held: false, startedAt: this.#options.clock.now() } });
    write({ status: { ...read().status, peerCall: 'Resumed' } });
    // the hold's media teardown ends before we follow the guest into the new room
    room.holding
      .then(() => this.#options.joinMedia(newCallId, active.callType === 'video', active.guestNick, xmpp))
      .catch((error: unknown) => this.#options.failed(error));
  }
}
