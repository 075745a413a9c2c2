/**
 * Signalling: the XMPP session (rooms, presence, control messages, chat), as the engines see it
 * (docs/architecture.md "Ports"). xmpp/session.ts is the real one; its message types are the vocabulary.
 */
import type { LobbyPresenceElement } from '../presence.ts';
import type { OutgoingChat, XmppEvents } from '../xmpp/session.ts';
import type { CallControl } from '../xmpp/stanzas.ts';
import type { JinglePort } from '../xmpp/jingle.ts';

type Subscribe<Events> = <K extends keyof Events>(event: K, listener: (payload: Events[K]) => void) => () => void;

export interface SignallingPort {
  readonly connected: boolean;
  /** ICE servers the session discovered (handed to the media transport) */
  readonly iceServers: RTCIceServer[];
  /** Jingle sessions for p2p calls (docs/protocol.md "p2p"); null before connecting */
  readonly jingle?: JinglePort | null;
  on: Subscribe<XmppEvents>;
  connect(): Promise<void>;
  joinRoom(room: string, nick: string, status: string, lobby: LobbyPresenceElement): Promise<void>;
  setRoomPresence(room: string, nick: string, status: string, lobby: LobbyPresenceElement): void;
  leaveRoom(room: string, nick: string): Promise<void>;
  /**
   * XEP-0410 self-ping (docs/protocol.md "Self-ping"): whether we are still an occupant of `room` as `nick`;
   * false for `not-acceptable`, `item-not-found` or no answer within `timeoutMs`.
   */
  pingSelf(room: string, nick: string, timeoutMs: number): Promise<boolean>;
  sendControl(room: string, control: CallControl): void;
  sendChat(room: string, message: OutgoingChat | string): string;
  disconnect(): Promise<void>;
}
