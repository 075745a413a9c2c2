import type { ClockPort } from '../ports/clock.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { RoomSelfPing, type SelfPingTarget } from '../room/roomSelfPing.ts';
import type { RoomFollowing } from './roomFollowing.ts';

/** rooms of the queue self-pinged each round besides our call's (room/roomSelfPing.ts) */
export const SELF_PING_SAMPLE = 4;

/**
 * The console's self-ping (docs/protocol.md "Self-ping"): our call's room and a few of the rooms we follow,
 * at random. A node that dies takes about its share of every console's rooms, so a few pings a round notice
 * it; the rest are then asked (RoomFollowing.rejoinLost).
 */
export function deskSelfPing(deps: {
  signalling: () => SignallingPort | null;
  clock: ClockPort;
  nick: () => string;
  /** the room of the call we are in, if any */
  callRoom: () => string | null;
  following: Pick<RoomFollowing, 'rooms' | 'rejoinLost'>;
  /** told of the rooms found lost before they are joined again */
  lost: (rooms: string[]) => void;
}): RoomSelfPing {
  return new RoomSelfPing({
    signalling: deps.signalling,
    clock: deps.clock,
    targets: () => {
      const nick = deps.nick();
      const active = deps.callRoom();
      const sample = pickAtRandom(
        deps.following.rooms().filter((room) => room !== active),
        SELF_PING_SAMPLE,
      );
      return [...(active ? [active] : []), ...sample].map((room): SelfPingTarget => ({ room, nick }));
    },
    lost: (lost) => {
      const rooms = lost.map((t) => t.room);
      deps.lost(rooms);
      return deps.following.rejoinLost(rooms);
    },
  });
}

/** up to `count` of `items`, each as likely */
function pickAtRandom<T>(items: T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length) picked.push(pool.splice(Math.floor(Math.random() * pool.length), 1)[0]!);
  return picked;
}
