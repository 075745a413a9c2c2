/**
 * Noticing a lost room (docs/protocol.md "Self-ping"): a MUC room is one process on one ejabberd node, and
 * when that node dies its occupants on other nodes are not told — their client still thinks it is in the
 * room, while the room (restarted empty on another node by the next stanza) no longer has them, and
 * nobody there sees them. So the client asks, every SELF_PING_MS and right after an XMPP reconnection:
 * an XEP-0410 self-ping (an IQ ping to its own occupant JID in the room). A result means it is still an
 * occupant; `not-acceptable`, `item-not-found` or no answer means it is not, and the room is joined again.
 */
import type { ClockPort, SignallingPort } from './ports.ts';

/** how often the rooms are checked (a lost room is noticed within this and a ping's answer) */
export const SELF_PING_MS = 12_000;
/** a ping not answered in this time counts as not an occupant */
export const SELF_PING_TIMEOUT_MS = 8000;

export interface SelfPingTarget {
  room: string;
  nick: string;
}

export interface RoomSelfPingOptions {
  signalling: () => SignallingPort | null;
  clock: ClockPort;
  /** the rooms to check in a round, with our nick in each */
  targets: () => SelfPingTarget[];
  /** the rooms we are no longer an occupant of: join them again */
  lost: (rooms: SelfPingTarget[]) => Promise<void>;
  intervalMs?: number;
}

export class RoomSelfPing {
  readonly #options: RoomSelfPingOptions;
  #cancel: (() => void) | null = null;
  #checking: Promise<SelfPingTarget[]> | null = null;

  constructor(options: RoomSelfPingOptions) {
    this.#options = options;
  }

  /** Checks every SELF_PING_MS from now until stop(). */
  start(): void {
    this.stop();
    const tick = () => {
      this.#cancel = this.#options.clock.setTimeout(() => {
        void this.checkNow().finally(() => {
          if (this.#cancel) tick();
        });
      }, this.#options.intervalMs ?? SELF_PING_MS);
    };
    tick();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  /** One round now (a round in progress is the answer): the rooms found lost, after they were joined again. */
  checkNow(): Promise<SelfPingTarget[]> {
    this.#checking ??= this.#round().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #round(): Promise<SelfPingTarget[]> {
    const signalling = this.#options.signalling();
    // a stream that is down is in no room: its reconnection joins them (and then asks again)
    if (!signalling?.connected) return [];
    const targets = this.#options.targets();
    const answers = await Promise.all(targets.map((t) => signalling.pingSelf(t.room, t.nick, SELF_PING_TIMEOUT_MS)));
    // the stream dropped meanwhile: the pings' failures say nothing about the rooms
    if (!signalling.connected) return [];
    const lost = targets.filter((_, i) => !answers[i]);
    if (lost.length) {
      console.warn(`no longer in ${lost.map((t) => t.room).join(', ')} (self-ping): joining again`);
      await this.#options.lost(lost).catch((error: unknown) => console.warn(`rejoining after a self-ping: ${String(error)}`));
    }
    return lost;
  }
}
