/**
 * Chat the room has not echoed yet (docs/protocol.md "Chat delivery"). A MUC room echoes every message to
 * its sender: that echo is the delivery. A message sent while the stream is down, or to a room that went
 * with its ejabberd node (the room restarts empty and drops it), gets no echo; it is sent again, with the
 * same id, each time we are in the room again, until its echo comes. Receivers keep one message per id
 * (state/callStatus.ts chatReceived), so a message that did arrive and is sent again shows once.
 *
 * An echo from a room in which the other side (the guest, for an agent; an agent, for the guest) is not
 * present reached nobody who matters (the room keeps no history): when the room was lost with its node and
 * we are back in it before the other side. Such a message is kept and sent again when the other side comes
 * (back) into the room. Who is present is what the room's presence told us since we were last found out of
 * it (roomLost) or lost the stream (streamLost): a room restarted empty tells us of nobody.
 *
 * Out of a room (found out of it, or the stream lost) until our presence comes back from it, nothing is
 * handed to it: the room would refuse it, and a join within RESEND_AFTER_MS would not send it again. What it
 * had not echoed when we were found out will never be echoed (the room that got it is gone, or it was
 * refused): the join sends it again however recently it was sent.
 *
 * An echo while the other side is listed is not proof either: when the other side's stream was on a node
 * that died, the room, on a node that lives, lists it until it notices (the session gone), and routes our
 * message to nobody. So what the room echoed in the last DEPARTED_WITHIN_MS before the other side's
 * unavailable presence is kept again, and sent again when it comes (back).
 */
import type { SignallingPort } from '../ports/signalling.ts';
import { newChatId, type OutgoingChat } from '../xmpp/session.ts';

/** what the outbox needs of the session: whether it is connected, and a groupchat message sent with its id */
export type ChatSender = Pick<SignallingPort, 'connected' | 'sendChat'>;

/** a message sent this recently is still on its way: a join meanwhile does not send it again */
export const RESEND_AFTER_MS = 2000;
/**
 * an echo this long before the other side's unavailable presence may have gone to its dead stream (in the
 * cluster bench, the messages lost so were sent 1–2 s after the kill: docs/performance.md "Chat during the
 * loss"); a message that did arrive and is sent again is dropped by id
 */
export const DEPARTED_WITHIN_MS = 10_000;

interface Pending {
  room: string;
  chat: OutgoingChat & { id: string };
  /** when it was last handed to a connected session (null: never) */
  sentAt: number | null;
  /** the room echoed it while nobody else was in it: sent again when someone comes */
  alone: boolean;
  /** when the room echoed it while the other side was listed (null: not yet) */
  echoedAt: number | null;
}

export class ChatOutbox {
  readonly #pending = new Map<string, Pending>();
  /** echoed while the other side was listed, in the last DEPARTED_WITHIN_MS (oldest first) */
  #echoed: Pending[] = [];
  /** per room, the other side present as its presence told us (nicks) */
  readonly #others = new Map<string, Set<string>>();
  /** the rooms we were in (our presence came back from them) */
  readonly #rooms = new Set<string>();
  /** the rooms we are out of until our presence comes back from them */
  readonly #out = new Set<string>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Sends the message when the session is connected, else keeps it for the next join; its id. */
  send(room: string, chat: OutgoingChat, signalling: ChatSender | null): string {
    const entry: Pending = { room, chat: { ...chat, id: newChatId() }, sentAt: null, alone: false, echoedAt: null };
    this.#pending.set(entry.chat.id, entry);
    this.#hand(entry, signalling);
    return entry.chat.id;
  }

  /** The room echoed our message: delivered, unless nobody else was there to receive it. */
  echoed(id: string): void {
    const entry = this.#pending.get(id);
    if (!entry) return;
    if (!this.#others.get(entry.room)?.size) {
      entry.alone = true;
      return;
    }
    this.#pending.delete(id);
    entry.echoedAt = this.#now();
    this.#forgetOldEchoes();
    this.#echoed.push(entry);
  }

  /** The other side's presence in `room`: one who comes (back) gets what the room echoed to nobody. */
  present(room: string, nick: string, available: boolean, signalling: ChatSender | null): void {
    let others = this.#others.get(room);
    if (!others) this.#others.set(room, (others = new Set()));
    if (!available) {
      others.delete(nick);
      if (!others.size) this.#others.delete(room);
      // what the room echoed just before may have gone to its dead stream: kept again for its return
      this.#forgetOldEchoes();
      for (const entry of this.#echoed.filter((e) => e.room === room)) {
        entry.alone = true;
        this.#pending.set(entry.chat.id, entry);
      }
      this.#echoed = this.#echoed.filter((e) => e.room !== room);
      return;
    }
    if (others.has(nick)) return;
    others.add(nick);
    for (const entry of this.#pending.values()) {
      if (entry.room !== room || !entry.alone) continue;
      entry.alone = false;
      this.#hand(entry, signalling);
    }
  }

  /** We were found out of `room` (its node died): whoever we saw there is not known to be in it any more. */
  roomLost(room: string): void {
    this.#others.delete(room);
    this.#outOf(room);
  }

  /** The stream went: on its return the rooms tell us anew who is there. */
  streamLost(): void {
    this.#others.clear();
    for (const room of this.#rooms) this.#outOf(room);
    for (const entry of this.#pending.values()) this.#outOf(entry.room);
  }

  /** We are in `room` (again): what it has not echoed is sent again. */
  joined(room: string, signalling: ChatSender | null): void {
    this.#rooms.add(room);
    this.#out.delete(room);
    const now = this.#now();
    for (const entry of this.#pending.values()) {
      if (entry.room === room && (entry.sentAt === null || now - entry.sentAt >= RESEND_AFTER_MS)) this.#hand(entry, signalling);
    }
  }

  /** The call ended: nothing is sent any more. */
  clear(): void {
    this.#pending.clear();
    this.#echoed = [];
    this.#others.clear();
    this.#rooms.clear();
    this.#out.clear();
  }

  get size(): number {
    return this.#pending.size;
  }

  #forgetOldEchoes(): void {
    const since = this.#now() - DEPARTED_WITHIN_MS;
    this.#echoed = this.#echoed.filter((e) => (e.echoedAt ?? 0) >= since);
  }

  /** out of `room`: what it has not echoed goes again at the join, and nothing goes before */
  #outOf(room: string): void {
    this.#out.add(room);
    for (const entry of this.#pending.values()) if (entry.room === room) entry.sentAt = null;
  }

  #hand(entry: Pending, signalling: ChatSender | null): void {
    if (!signalling?.connected || this.#out.has(entry.room)) return;
    signalling.sendChat(entry.room, entry.chat);
    entry.sentAt = this.#now();
  }
}
