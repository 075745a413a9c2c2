/**
 * Chat the room has not echoed yet (docs/protocol.md "Chat delivery"). A MUC room echoes every message to
 * its sender: that echo is the delivery. A message sent while the stream is down, or to a room that went
 * with its ejabberd node (the room restarts empty and drops it), gets no echo; it is sent again, with the
 * same id, each time we are in the room again, until its echo comes. Receivers keep one message per id
 * (state/callStatus.ts chatReceived), so a message that did arrive and is sent again shows once.
 */
import type { SignallingPort } from '../ports/signalling.ts';
import { newChatId, type OutgoingChat } from '../xmpp/session.ts';

/** a message sent this recently is still on its way: a join meanwhile does not send it again */
export const RESEND_AFTER_MS = 2000;

interface Pending {
  room: string;
  chat: OutgoingChat & { id: string };
  /** when it was last handed to a connected session (null: never) */
  sentAt: number | null;
}

export class ChatOutbox {
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Sends the message when the session is connected, else keeps it for the next join; its id. */
  send(room: string, chat: OutgoingChat, signalling: SignallingPort | null): string {
    const entry: Pending = { room, chat: { ...chat, id: newChatId() }, sentAt: null };
    this.#pending.set(entry.chat.id, entry);
    this.#hand(entry, signalling);
    return entry.chat.id;
  }

  /** The room echoed our message: delivered. */
  echoed(id: string): void {
    this.#pending.delete(id);
  }

  /** We are in `room` (again): what it has not echoed is sent again. */
  joined(room: string, signalling: SignallingPort | null): void {
    const now = this.#now();
    for (const entry of this.#pending.values()) {
      if (entry.room === room && (entry.sentAt === null || now - entry.sentAt >= RESEND_AFTER_MS)) this.#hand(entry, signalling);
    }
  }

  /** The call ended: nothing is sent any more. */
  clear(): void {
    this.#pending.clear();
  }

  get size(): number {
    return this.#pending.size;
  }

  #hand(entry: Pending, signalling: SignallingPort | null): void {
    if (!signalling?.connected) return;
    signalling.sendChat(entry.room, entry.chat);
    entry.sentAt = this.#now();
  }
}
