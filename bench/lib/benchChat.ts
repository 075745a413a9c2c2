/**
 * The chat of bench/ejabberd-cluster.ts's light clients (bench/lib/stayingGuest.ts, xmppAgent.ts), two
 * ways side by side in the same run: each numbered message is sent once (`bench-chat`: what ejabberd
 * alone delivers through a node's loss) and through the apps' outbox (`bench-outbox`:
 * packages/call/src/room/chatOutbox.ts itself, docs/protocol.md "Chat delivery": kept until the room echoes
 * it while the other side is present, sent again with its id when we are in the room again or the other
 * side comes back). A receiver keeps one message per id, as the apps do (state/callStatus.ts chatReceived).
 */
import { ChatOutbox, type ChatSender } from '../../packages/call/src/room/chatOutbox.ts';

export type ChatKind = 'once' | 'outbox';
export const chatBody = (kind: ChatKind, from: 'guest' | 'agent', seq: number): string =>
  `${kind === 'once' ? 'bench-chat' : 'bench-outbox'} ${from} ${seq}`;

/** The kind and seq of a bench message from `from` (null for any other body). */
export function parseChat(body: string, from: 'guest' | 'agent'): { kind: ChatKind; seq: number } | null {
  const m = new RegExp(`^bench-(chat|outbox) ${from} (\\d+)$`).exec(body);
  return m ? { kind: m[1] === 'chat' ? 'once' : 'outbox', seq: Number(m[2]) } : null;
}

/**
 * A client's outbox (the apps' own class) over its way of sending a groupchat message with an id; the
 * client wires its events to it as packages/call/src/room/callRoom.ts does (send, echoed, present, joined,
 * roomLost, streamLost).
 */
export function benchOutbox(
  connected: () => boolean,
  send: (room: string, id: string, body: string) => void,
): { outbox: ChatOutbox; sender: ChatSender } {
  const sender: ChatSender = {
    get connected() {
      return connected();
    },
    sendChat(room, message) {
      const chat = typeof message === 'string' ? { body: message } : message;
      if (!chat.id) throw new Error('bench outbox: a message without its id');
      send(room, chat.id, chat.body);
      return chat.id;
    },
  };
  return { outbox: new ChatOutbox(() => performance.now()), sender };
}

/** The outbox messages one receiver got from one sender: one per id, as the apps keep them. */
export class ChatReceipts {
  /** seq → performance.now() of its first arrival */
  readonly first = new Map<number, number>();
  /** id → seq */
  readonly #ids = new Map<string, number>();
  /** arrivals of an id already received (sent again after it had arrived): dropped, as the apps drop them */
  duplicates = 0;
  /** a seq that arrived under a second id: the reader would see it twice (0 expected) */
  shownTwice = 0;

  receive(seq: number, id: string | undefined, at: number): void {
    if (id !== undefined && this.#ids.has(id)) {
      this.duplicates++;
      return;
    }
    if (id !== undefined) this.#ids.set(id, seq);
    if (this.first.has(seq)) this.shownTwice++;
    else this.first.set(seq, at);
  }
}
