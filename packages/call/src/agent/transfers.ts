/**
 * Transfers, the agent's side (docs/protocol.md "Transfer"): the calls other agents hand to us (listed,
 * their guests' rooms joined so their presence tells the call's state and type), taking one (we become its
 * agent and join its media room; the guest stays in it), handing our own call over (we stay until the new
 * agent is in: its feed reached us, or, p2p, its answer control named it) and the list of who could take
 * it. The desk (agentDesk.ts) hands in its API and reads and writes its snapshot.
 */
import type { IncomingTransfer, TransferAccepted, TransferTargets } from '@lobby/contracts';
import type { ConsoleApi, OpenCallRoom } from '../api/consoleApi.ts';
import type { RemoteFeed } from '../media/mediaSession.ts';
import type { RoomPresence } from '../xmpp/session.ts';
import type { CallKind } from '../presence.ts';

/** What transfers read of the desk's snapshot. */
export interface TransferView {
  jid: string | null;
  transfers: IncomingTransfer[];
  activeCall: { callId: string } | null;
  remoteFeeds: RemoteFeed[];
}

/** A call taken by transfer, as the desk enters it. */
export interface TakenCall {
  callId: string;
  room: string;
  guestNick: string;
  callType: CallKind;
  guestStatus: string;
  transferred: true;
}

export interface TransfersOptions {
  api: Pick<ConsoleApi, 'transfer' | 'acceptTransfer' | 'transferTargets'>;
  read: () => TransferView;
  write: (patch: { transfers: IncomingTransfer[] }) => void;
  /** joins the guest's room of a call handed to us */
  joinRoom: (room: OpenCallRoom) => Promise<void>;
  /** the last presence of an occupant of a room we are in */
  presenceOf: (room: string, nick: string) => RoomPresence | null;
  /** the new agent is in: we leave our call without ending it */
  handedOver: () => void;
  /** we took a call: the desk enters it */
  enter: (call: TakenCall) => Promise<void>;
}

export class Transfers {
  readonly #options: TransfersOptions;
  /** the agent our call is handed over to: we leave (without ending the call) once its feed is in */
  #handOverTo: string | null = null;
  /** p2p: the latest agent who answered a call (a transfer's taker): no media room shows us its feed */
  #answered: { callId: string; jid: string } | null = null;

  constructor(options: TransfersOptions) {
    this.#options = options;
  }

  /** A call handed to us: listed, and its guest's room joined (its presence tells the call's state and type). */
  onTransfer(transfer: IncomingTransfer): void {
    const { read, write } = this.#options;
    write({ transfers: [...read().transfers.filter((t) => t.id !== transfer.id), transfer] });
    void this.#options.joinRoom({ room: transfer.room, assignmentId: 0, guestUsername: transfer.guestUsername, callId: transfer.callId });
  }

  /** Somebody took a transfer: dropped from our list; if it was our call, we leave once the new agent is in. */
  onTransferAccepted(accepted: TransferAccepted): void {
    const { read, write } = this.#options;
    write({ transfers: read().transfers.filter((t) => t.id !== accepted.id) });
    const active = read().activeCall;
    if (!active || active.callId !== accepted.callId || accepted.toJid === read().jid) return;
    this.#handOverTo = accepted.toJid;
    this.handOverIfArrived();
  }

  /** p2p: an agent answered a call (`peer`: its full JID); a transfer's taker is ready for the guest's session. */
  onAnswer(callId: string, peer: string): void {
    this.#answered = { callId, jid: peer.split('/')[0]!.toLowerCase() };
    this.handOverIfArrived();
  }

  /** Leaves our call once the agent it is handed to is in (its feed, or its p2p answer). */
  handOverIfArrived(): void {
    const to = this.#handOverTo;
    const answered = this.#answered;
    const { activeCall, remoteFeeds } = this.#options.read();
    const takerReady = !!answered && answered.callId === (activeCall?.callId ?? null) && answered.jid === to?.toLowerCase();
    if (to && (takerReady || remoteFeeds.some((f) => f.display === to))) {
      this.#handOverTo = null;
      this.#options.handedOver();
    }
  }

  /** Our call ended otherwise than by its hand-over: nothing is handed over any more. */
  cancelHandOver(): void {
    this.#handOverTo = null;
  }

  /** Who could take our call now (agents available, and the assignments). */
  async targets(): Promise<TransferTargets> {
    const { api } = this.#options;
    if (!api.transferTargets) return { agents: [], assignments: [] };
    return api.transferTargets();
  }

  /** Hands our call to an agent or an assignment's agents; we stay until the new agent is in the call. */
  async transfer(to: { toUserId: number } | { assignmentId: number }): Promise<void> {
    const active = this.#options.read().activeCall;
    const { api } = this.#options;
    if (!active || !api.transfer) throw new Error('not in a call');
    await api.transfer(active.callId, to);
  }

  /** Takes a call handed to us: we become its agent and join its media room; the guest stays in it. */
  async accept(id: number): Promise<void> {
    const { api, read, write } = this.#options;
    const transfer = read().transfers.find((t) => t.id === id);
    if (!transfer || !api.acceptTransfer) throw new Error('no such transfer');
    if (read().activeCall) throw new Error('already in a call');
    const taken = await api.acceptTransfer(id);
    const guest = this.#options.presenceOf(taken.room, taken.guestUsername);
    const callType = guest?.lobby?.callType === 'voice' ? 'voice' : 'video';
    write({ transfers: read().transfers.filter((t) => t.id !== id) });
    await this.#options.enter({ callId: taken.callId, room: taken.room, guestNick: taken.guestUsername, callType, guestStatus: guest?.statusText ?? '', transferred: true });
  }
}
