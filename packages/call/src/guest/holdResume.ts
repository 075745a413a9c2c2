/**
 * Hold and resume, the guest's side, as the room's owner (docs/protocol.md "Hold and resume"). An agent's
 * hold control (or, p2p, its Jingle session-info <hold/>) pauses the call: the peer call becomes Paused,
 * our media stops and the call's media room is destroyed, and the room hears CallOnHold. An agent's resume
 * continues the call under a new call id, linked to the held one and the first one by
 * POST /call-report/hold-call: we publish in the new room and announce CallResumed|agent|newCallId, which
 * the agent follows into the new room.
 */
import { newCallId } from '../callId.ts';
import type { GuestApi } from '../api/guestApi.ts';
import type { CallRoom } from '../room/callRoom.ts';
import type { SignallingPort } from '../room/ports.ts';
import { peerPaused, type CallStatus } from '../state/callStatus.ts';
import type { AgentsInCall } from './agentsInCall.ts';
import type { GuestRoomPresence } from './roomPresence.ts';
import type { CallKind } from '../presence.ts';

/** What hold and resume read and write of the engine's snapshot. */
export interface HeldCallView {
  phase: string;
  callId: string | null;
  initialCallId: string | null;
  callKind: CallKind;
  status: CallStatus;
}

export interface HoldResumeOptions {
  api: Pick<GuestApi, 'holdCall'>;
  room: Pick<CallRoom, 'hold' | 'holding'>;
  agents: Pick<AgentsInCall, 'holder'>;
  presence: Pick<GuestRoomPresence, 'announce'>;
  read: () => HeldCallView;
  write: (patch: { callId: string; localStream: MediaStream; muted: { audio: boolean; video: boolean }; status: CallStatus }) => void;
  /** the guest's username, session and assignment once prepared */
  call: () => { username: string; xmpp: SignallingPort; assignmentId: number | null } | null;
  localMedia: (kind: CallKind) => Promise<MediaStream>;
  /** the resumed call's initiated timestamp */
  initiated: (callId: string) => Promise<void>;
  /** creates the resumed call's media room, joins it and publishes */
  startMedia: (callId: string, kind: CallKind, stream: MediaStream, username: string, xmpp: SignallingPort) => Promise<void>;
  /** the resume failed: the call ends */
  failed: (callId: string, message: string) => Promise<void>;
}

export class HoldResume {
  readonly #options: HoldResumeOptions;
  /** the agent who put the call on hold (target of CallOnHold / CallResumed) */
  #heldBy: string | null = null;
  #resuming = false;

  constructor(options: HoldResumeOptions) {
    this.#options = options;
  }

  /** An agent (`from`: its room JID) held the call. */
  async hold(from: string): Promise<void> {
    const { phase, status } = this.#options.read();
    if (phase !== 'ongoing' || status.peerCall === 'Paused') return;
    const agent = this.#options.agents.holder(from);
    this.#heldBy = agent;
    await this.#options.room.hold(peerPaused, () => this.#options.presence.announce('CallOnHold', agent), { destroyRoom: true });
  }

  /** The agent resumed the held call: it continues under a new call id. */
  async resume(): Promise<void> {
    const { read, write } = this.#options;
    const call = this.#options.call();
    const current = read().callId;
    if (!call || !current || read().status.peerCall !== 'Paused') return;
    if (this.#resuming) return;
    this.#resuming = true;
    const nextCallId = newCallId(call.username);
    try {
      await this.#options.room.holding;
      await this.#options.api.holdCall({
        origin_call_id: read().initialCallId ?? current,
        current_call_id: current,
        new_call_id: nextCallId,
        ...(call.assignmentId !== null ? { assignment_id: call.assignmentId } : {}),
        guest_username: call.username,
      });
      const kind = read().callKind;
      const localStream = await this.#options.localMedia(kind);
      write({
        callId: nextCallId,
        localStream,
        muted: { audio: false, video: false },
        status: { ...read().status, peerCall: null, streamsReady: { local: true, remote: false } },
      });
      await this.#options.initiated(nextCallId);
      await this.#options.startMedia(nextCallId, kind, localStream, call.username, call.xmpp);
      if (read().callId === nextCallId && read().status.peers.length === 0) this.#options.presence.announce('CallResumed', this.#heldBy ?? '');
    } catch (error) {
      await this.#options.failed(nextCallId, error instanceof Error ? error.message : String(error));
    } finally {
      this.#resuming = false;
    }
  }
}
