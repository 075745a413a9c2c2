/**
 * The chat of a call's room, the same for the guest and the agent (docs/protocol.md "Call status" chat,
 * "Chat delivery"): messages and files sent to the call's XMPP room, the room's messages listed in the
 * call's status (newest first, unread while the chat is closed), and what the room has not echoed kept in
 * the outbox (room/chatOutbox.ts) and sent again as the engine tells it of the room: our own presence back
 * in it, the other side's presence, the room found lost, the stream lost. CallRoom composes one; the
 * engine decides which messages are the call's and who sent them.
 */
import type { ChatMessage, RoomPresence } from '../xmpp/session.ts';
import { chatOpened, chatReceived, fileKind, type CallStatus } from '../state/callStatus.ts';
import { uploadTypeOf } from '../api/http.ts';
import type { ClockPort, SignallingPort } from './ports.ts';
import { ChatOutbox } from './chatOutbox.ts';

/** Uploads a file (the engine's API: POST /upload/{type}) and resolves with its URL. */
export type ChatUpload = (type: ReturnType<typeof uploadTypeOf>, file: Blob) => Promise<string>;

export interface RoomChatOptions {
  clock: ClockPort;
  /** the engine's signalling session (null before it is connected) */
  signalling(): SignallingPort | null;
  /** the XMPP room of the current call (chat goes there) */
  room(): string | null;
  /** writes the call's status (the engine's snapshot) */
  setStatus(update: (status: CallStatus) => CallStatus): void;
}

export class RoomChat {
  readonly #options: RoomChatOptions;
  /** chat sent and not yet echoed by the room, sent again at the next join (room/chatOutbox.ts) */
  readonly #outbox: ChatOutbox;

  constructor(options: RoomChatOptions) {
    this.#options = options;
    this.#outbox = new ChatOutbox(() => options.clock.now());
  }

  /** Sends a chat message to the call's room (or keeps it until we are in the room again). */
  send(body: string): void {
    const text = body.trim();
    const room = this.#options.room();
    if (!text || !room) return;
    this.#outbox.send(room, { body: text }, this.#options.signalling());
  }

  /** Uploads a file (through the engine's API) and sends its link in the chat. */
  async sendFile(file: Blob & { name?: string }, upload: ChatUpload): Promise<void> {
    const room = this.#options.room();
    const signalling = this.#options.signalling();
    if (!room || !signalling?.connected) throw new Error('not in a call');
    const url = await upload(uploadTypeOf(file), file);
    const name = file.name ?? 'file';
    this.#outbox.send(room, { body: name, file: { url, name } }, signalling);
  }

  /** A chat message of the call's room (newest first, unread while the chat is closed). */
  receive(message: ChatMessage, mine: boolean, from: string): void {
    if (mine && message.id) this.#outbox.echoed(message.id);
    this.#options.setStatus((s) =>
      chatReceived(s, {
        id: message.id ?? `${message.from}-${message.at}`,
        from,
        nick: message.nick,
        body: message.body,
        at: message.at,
        mine,
        ...(message.file ? { file: { ...message.file, kind: fileKind(message.file.name, message.file.url) } } : {}),
      }),
    );
  }

  /** Opens or closes the chat panel (opening clears the unread count). */
  setOpen(open: boolean): void {
    this.#options.setStatus((s) => chatOpened(s, open));
  }

  /** Our own presence came from `room`: we are in it (again), and what it did not echo is sent again. */
  roomJoined(room: string): void {
    this.#outbox.joined(room, this.#options.signalling());
  }

  /** Self-ping found us out of these rooms (room/roomSelfPing.ts): who was in them is not known any more. */
  roomsLost(rooms: string[]): void {
    for (const room of rooms) this.#outbox.roomLost(room);
  }

  /** Our XMPP stream went: the rooms tell us anew who is in them once it is back. */
  streamLost(): void {
    this.#outbox.streamLost();
  }

  /**
   * The presence of the other side of a call in its room (the guest's, for an agent; an agent's, for the
   * guest), whether that call is ours yet or not: the chat the room echoed to nobody goes to one who comes.
   */
  otherSidePresence(presence: RoomPresence): void {
    this.#outbox.present(presence.room, presence.nick, presence.available, this.#options.signalling());
  }

  /** The call ended: nothing is sent any more. */
  clear(): void {
    this.#outbox.clear();
  }
}
