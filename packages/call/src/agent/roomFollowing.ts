/**
 * The rooms a console follows and what it reads there (docs/protocol.md "Presence"): it joins the room of
 * every open call (the server lists them, and announces each new one), keeps each occupant's last presence,
 * and keeps its two lists from them — the queue (OpenCall) and the calls other agents are in (InCall),
 * incrementally (waitingQueue.ts) — with round robin's routing of each call. After a loss it joins its
 * rooms again and rebuilds both lists (`rejoin`). The desk (agentDesk.ts) hands in its API, its signalling
 * session and its clock.
 */
import type { CallRoutingInfo as CallRouting } from '@lobby/contracts';
import type { ConsoleApi, OpenCallRoom } from '../api/consoleApi.ts';
import type { LobbyPresenceElement } from '../presence.ts';
import type { ClockPort, SignallingPort } from '../room/ports.ts';
import type { RoomPresence } from '../xmpp/session.ts';
import { eachLimited } from './eachLimited.ts';
import { SELF_PING_TIMEOUT_MS } from '../room/roomSelfPing.ts';
import { NAVIGATION_RETURN_MS } from './reconnection.ts';
import { buildList, withPresence, type ListedStatus, type QueueContext, type QueueEntry } from './waitingQueue.ts';

/** room joins sent at once when the console starts with many waiting guests (eachLimited.ts) */
export const ROOM_JOINS_IN_FLIGHT = 16;

/** The lists the desk shows. */
export interface FollowedLists {
  queue: QueueEntry[];
  runningCalls: QueueEntry[];
}

export interface RoomFollowingOptions {
  api: Pick<ConsoleApi, 'rooms'>;
  signalling: () => SignallingPort | null;
  clock: ClockPort;
  /** our nick in the guests' rooms */
  nick: () => string;
  /** our element in a room's presence (name, picture) */
  lobbyElement: () => LobbyPresenceElement;
  read: () => FollowedLists;
  write: (lists: Partial<FollowedLists>) => void;
  /** a room could not be joined */
  failed: (message: string) => void;
  /** rooms joined whatever the server lists (our call's, the calls handed to us) */
  keptRooms: () => OpenCallRoom[];
  /** a rejoin begins (its turn came) and has joined its rooms (before the lists are rebuilt) */
  rejoinStarts?: (after: 'signalling' | 'events') => void;
  rejoined?: (after: 'signalling' | 'events') => void;
}

export class RoomFollowing {
  readonly #options: RoomFollowingOptions;
  readonly #rooms = new Map<string, OpenCallRoom>();
  /** last presence per room occupant, `room/nick` → presence */
  readonly #presence = new Map<string, RoomPresence>();
  /** round robin: the latest routing of each call (callId → routing) */
  readonly #routing = new Map<string, CallRouting>();
  /** call id → the room/nick keys of #presence whose presence names that call (routing touches only these) */
  readonly #callOccupants = new Map<string, Set<string>>();
  #rejoining: Promise<void> = Promise.resolve();

  constructor(options: RoomFollowingOptions) {
    this.#options = options;
  }

  /** The open calls' rooms, joined, and the queue built from their presence. */
  async start(): Promise<void> {
    const rooms = await this.#options.api.rooms();
    for (const room of rooms) if (room.routing) this.#storeRouting(room.routing);
    await eachLimited(rooms, ROOM_JOINS_IN_FLIGHT, (room) => this.join(room));
    this.#options.write({ queue: this.list('OpenCall') });
  }

  /** The rooms we are in. */
  rooms(): string[] {
    return [...this.#rooms.keys()];
  }

  /** A room we are in, as the server listed it. */
  known(room: string): OpenCallRoom | null {
    return this.#rooms.get(room) ?? null;
  }

  /** An occupant's last presence (null when it is not in the room). */
  presenceOf(room: string, nick: string): RoomPresence | null {
    return this.#presence.get(`${room}/${nick}`) ?? null;
  }

  /** Joins a guest's room (once; `again` after a reconnection, when the new stream is in no room). */
  async join(room: OpenCallRoom, again = false): Promise<void> {
    const xmpp = this.#options.signalling();
    if (!xmpp) return;
    const known = this.#rooms.has(room.room);
    this.#rooms.set(room.room, room);
    if (known && !again) return;
    try {
      await xmpp.joinRoom(room.room, this.#options.nick(), '', this.#options.lobbyElement());
    } catch (error) {
      this.#rooms.delete(room.room);
      this.#options.failed(`could not join ${room.room}: ${String(error)}`);
    }
  }

  /** An occupant's presence: kept, and only its own entry of each list changes (waitingQueue.ts). */
  onPresence(presence: RoomPresence): void {
    const key = `${presence.room}/${presence.nick}`;
    this.#indexPresence(key, presence.available ? presence : null);
    if (presence.available) this.#presence.set(key, presence);
    else this.#presence.delete(key);
  }

  /** The lists after `presence` (the desk's own call's presence handled first); nothing listed changed: no write. */
  relist(presence: RoomPresence): void {
    const ctx = this.#context();
    const { queue: before, runningCalls: runningBefore } = this.#options.read();
    const queue = withPresence(before, presence, 'OpenCall', ctx);
    this.#keepPlaces(before, queue, ctx.now);
    if (!presence.available) this.#expireNavigating(queue, presence);
    const runningCalls = withPresence(runningBefore, presence, 'InCall', ctx);
    if (queue !== before || runningCalls !== runningBefore) this.#options.write({ queue, runningCalls });
  }

  /**
   * Round robin routed one call: only the entry of that call's occupant can change (waitingQueue.ts).
   * Rebuilding the queue from every presence here cost the console N entries per routing event; with
   * thousands waiting and their churn (several routing events per arrival) its main thread stalled for
   * seconds (docs/performance.md "Waiting guests").
   */
  onRouting(routing: CallRouting): void {
    this.#storeRouting(routing);
    const ctx = this.#context();
    const before = this.#options.read().queue;
    let queue = before;
    for (const key of this.#callOccupants.get(routing.callId) ?? []) {
      const presence = this.#presence.get(key);
      if (presence) queue = withPresence(queue, presence, 'OpenCall', ctx);
    }
    if (queue !== before) this.#options.write({ queue });
  }

  /** Members whose status is OpenCall are in an open call; everyone else is removed (docs/protocol.md). */
  list(wanted: ListedStatus): QueueEntry[] {
    const lists = this.#options.read();
    return buildList(this.#presence.values(), wanted, this.#context(), wanted === 'OpenCall' ? lists.queue : lists.runningCalls);
  }

  /**
   * Joins the rooms of the open calls again and rebuilds both lists from their presence: after the XMPP
   * session reconnected (`signalling`: the new stream is in no room, so every room is joined again and its
   * occupants' presence read afresh) and after the server's event stream came back (`events`: calls opened
   * meanwhile were never announced). The one place that decides which rooms a console is in after a loss.
   * One at a time: the XMPP stream and the event stream often come back together.
   */
  rejoin(after: 'signalling' | 'events'): Promise<void> {
    this.#rejoining = this.#rejoining
      .then(() => this.#rejoinNow(after))
      .catch((error: unknown) => console.warn(`rejoining rooms after ${after}: ${String(error)}`));
    return this.#rejoining;
  }

  /**
   * A self-ping found us out of `found` (room/roomSelfPing.ts): the ejabberd node that held them died, and
   * every other room it held is lost as well, without a word to us (docs/operations.md "Scaling"). So
   * every room we are in (and keep) is asked, and each we are no longer in is joined again, its occupants'
   * presence read afresh; the rooms still ours keep theirs (joining a room we are in again would not
   * send it).
   */
  rejoinLost(found: string[]): Promise<void> {
    this.#rejoining = this.#rejoining
      .then(() => this.#rejoinLostNow(found))
      .catch((error: unknown) => console.warn(`rejoining lost rooms: ${String(error)}`));
    return this.#rejoining;
  }

  async #rejoinLostNow(found: string[]): Promise<void> {
    const xmpp = this.#options.signalling();
    if (!xmpp?.connected) return;
    const rooms = new Map(this.#rooms);
    for (const kept of this.#options.keptRooms()) if (!rooms.has(kept.room)) rooms.set(kept.room, kept);
    const lost = new Set(found.filter((room) => rooms.has(room)));
    await eachLimited([...rooms.keys()].filter((room) => !lost.has(room)), ROOM_JOINS_IN_FLIGHT, async (room) => {
      if (!(await xmpp.pingSelf(room, this.#options.nick(), SELF_PING_TIMEOUT_MS))) lost.add(room);
    });
    if (!xmpp.connected) return; // the stream dropped meanwhile: its reconnection joins every room
    await eachLimited([...lost], ROOM_JOINS_IN_FLIGHT, async (room) => {
      this.#forgetPresence((r) => r === room);
      await this.join(rooms.get(room)!, true);
    });
    this.#options.rejoined?.('signalling');
    this.#options.write({ queue: this.list('OpenCall'), runningCalls: this.list('InCall') });
  }

  async #rejoinNow(after: 'signalling' | 'events'): Promise<void> {
    if (!this.#options.signalling()) return;
    this.#options.rejoinStarts?.(after);
    const open = await this.#options.api.rooms().catch(() => null);
    for (const room of open ?? []) if (room.routing) this.#storeRouting(room.routing);
    // the server cannot say (it restarts too): the rooms we were in
    const wanted = new Map((open ?? [...this.#rooms.values()]).map((r) => [r.room, r]));
    // our call's room, and the rooms of calls handed to us, whatever the list says
    for (const kept of this.#options.keptRooms()) if (!wanted.has(kept.room)) wanted.set(kept.room, kept);
    // as many at once as the first join (a console following a thousand waiting guests rejoins in seconds)
    await eachLimited([...wanted.values()], ROOM_JOINS_IN_FLIGHT, async (room) => {
      if (after === 'signalling') this.#forgetPresence((r) => r === room.room);
      await this.join(room, after === 'signalling');
    });
    if (after === 'signalling') {
      // rooms of calls that ended meanwhile are not joined again: their occupants are gone from the queue
      for (const room of [...this.#rooms.keys()]) if (!wanted.has(room)) this.#rooms.delete(room);
      this.#forgetPresence((r) => !this.#rooms.has(r));
    }
    this.#options.rejoined?.(after);
    this.#options.write({ queue: this.list('OpenCall'), runningCalls: this.list('InCall') });
  }

  /**
   * Keeps a call's routing with the offer's end on this browser's clock: never later than the offer's
   * length from now, so a clock ahead of or behind the server's never shows more than the offer time.
   */
  #storeRouting(routing: CallRouting): void {
    const serverEnd = routing.expiresAt ? Date.parse(routing.expiresAt) : null;
    const localEnd =
      serverEnd !== null && routing.offerSeconds ? Math.min(serverEnd, this.#options.clock.now() + routing.offerSeconds * 1000) : serverEnd;
    this.#routing.set(routing.callId, { ...routing, expiresAt: localEnd === null ? null : new Date(localEnd).toISOString() });
  }

  /** Keeps #callOccupants (call id → room/nick keys whose last presence names it) with #presence. */
  #indexPresence(key: string, presence: RoomPresence | null): void {
    const before = this.#presence.get(key)?.info.callId;
    const after = presence?.info.callId;
    if (before === after) return;
    if (before) {
      const keys = this.#callOccupants.get(before);
      keys?.delete(key);
      if (keys?.size === 0) this.#callOccupants.delete(before);
    }
    if (after) {
      const keys = this.#callOccupants.get(after) ?? new Set<string>();
      keys.add(key);
      this.#callOccupants.set(after, keys);
    }
  }

  #forgetPresence(ofRoom: (room: string) => boolean): void {
    for (const [key, presence] of this.#presence)
      if (ofRoom(presence.room)) {
        this.#indexPresence(key, null);
        this.#presence.delete(key);
      }
  }

  #context(): QueueContext {
    const now = this.#options.clock.now();
    const returning = new Map<string, number>();
    for (const [callId, kept] of this.#places) {
      if (now - kept.left > PLACE_KEPT_MS) this.#places.delete(callId);
      else returning.set(callId, kept.since);
    }
    return { nick: this.#options.nick(), rooms: this.#rooms, routing: this.#routing, now, returning };
  }

  /** The call ended (an `end` control in its room): its entry goes now, not kept as a page change. */
  ended(callId: string): void {
    this.#places.delete(callId);
    const { queue } = this.#options.read();
    if (queue.some((e) => e.callId === callId)) this.#options.write({ queue: queue.filter((e) => e.callId !== callId) });
  }

  /**
   * A navigating guest whose page went stays in the queue (waitingQueue.ts): if no page of it is back in
   * its room NAVIGATION_RETURN_MS later, the call's entry goes (its place is kept a while longer).
   */
  #expireNavigating(queue: QueueEntry[], presence: RoomPresence): void {
    const entry = queue.find((e) => e.room === presence.room && e.nick === presence.nick && e.navigating);
    if (!entry) return;
    this.#options.clock.setTimeout(() => {
      const { queue: now } = this.#options.read();
      if (this.presenceOf(entry.room, entry.nick) || !now.some((e) => e.callId === entry.callId && e.navigating)) return;
      const left = now.filter((e) => e.callId !== entry.callId);
      this.#keepPlaces(now, left, this.#options.clock.now());
      this.#options.write({ queue: left });
    }, NAVIGATION_RETURN_MS);
  }

  /** waiting calls that left the queue lately: their place, for a guest that comes back to it (a page change) */
  readonly #places = new Map<string, { since: number; left: number }>();

  #keepPlaces(before: QueueEntry[], after: QueueEntry[], now: number): void {
    if (before === after) return;
    const listed = new Set(after.map((e) => e.callId));
    for (const entry of before) if (!listed.has(entry.callId)) this.#places.set(entry.callId, { since: entry.since, left: now });
  }
}

/** how long a waiting call's place is kept after its guest left the queue (a page change takes seconds) */
const PLACE_KEPT_MS = 60_000;
