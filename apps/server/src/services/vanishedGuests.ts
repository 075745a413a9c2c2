/**
 * Guests who vanished: a browser closed or crashed says nothing — its pagehide beacon
 * (guest_exit_timestamp) is not sent when the browser dies, and is not always sent when a tab is killed —
 * but ejabberd drops the guest from its room within a second (the websocket closes) or at its ping
 * timeout, and the agents' queue follows the room. The server learns the same from ejabberd and stamps
 * guest_exit_at on each call whose guest is no longer in its room. The reports then count the call as
 * abandoned (unanswered) or ended (answered) instead of "Waiting or open" for hours (docs/operations.md
 * "Calls whose guest vanished").
 *
 * Events, not polling: asking ejabberd for the occupants of every open call's room every 3 s cost over a
 * core at 5,000 waiting guests (docs/performance.md "Idle cost of waiting guests"). ejabberd posts each
 * guest's leaving and joining of its rooms (infra/ejabberd/modules/mod_lobby_events.erl, POST
 * /api/ejabberd-events: `left` and `joined`), and only the rooms a guest left are followed, one question
 * each every few seconds. Events are lost while the server restarts, so a backstop asks ejabberd once a
 * minute (`backstopMs`) for every guest in a room in one call and follows the open calls whose guest it
 * does not list.
 *
 * Only calls older than `graceMs` (the guest joins its room before it opens the call), not ended and not
 * continued by a resumed call (a held part ends when the next part begins) are checked.
 *
 * An XMPP drop is not the guest leaving: when ejabberd restarts, every room is empty until the guests
 * reconnect (their backoff waits up to 10 s between attempts, docs/protocol.md "XMPP reconnection"), and
 * a guest's own connection may drop and come back. So a guest is taken for gone only once it has been
 * missing from its room for `absentMs` (20 s) of ejabberd's answers in a row — the leave event is the
 * first; a room ejabberd cannot answer about (down, restarting) is no longer followed, so its count starts
 * again when the backstop next finds the guest missing — and guest_exit_at is the start of that count. A guest back in its room (a join event, or the backstop's
 * listing) while its call is still open was not gone: the stamp is taken back.
 *
 * An ejabberd node lost is not its guests leaving either (docs/operations.md "Scaling"): the rooms it held
 * are gone, and their guests join them again on another node once their self-ping finds them out (docs/
 * protocol.md "Self-ping"), seconds later; the guests whose session it held reconnect to another node.
 * So a guest is stamped gone only when a listing of every node (`roomGuests`, null while a node does not
 * answer) leaves it out, and every node has answered for `rejoinGraceMs` since a listing last could not
 * be made: a node down holds back every stamp until it is back or removed from EJABBERD_API_URL.
 *
 * With several server instances (docs/operations.md "Shared state: jobs, limits and files") each follows
 * the rooms whose events reached it — an event reaches one instance, so the work is shared out by itself —
 * and the backstop, the same work on every open call, runs on the instance holding `backstopLock`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EjabberdClient } from './ejabberd.ts';
import type { JobLock } from './jobLocks.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

/** runOnce() follows the rooms under suspicion (and runs the backstop when due); resolves with the call ids stamped. */
export interface VanishedGuestSweep extends PeriodicJob<string[]> {
  /** ejabberd: a guest left the room `roomJid` */
  left(roomJid: string): void;
  /** ejabberd: a guest joined the room `roomJid` */
  joined(roomJid: string): void;
}

/** room JIDs per query of the followed rooms (SQL parameters stay far below every dialect's limit) */
const ROOMS_PER_QUERY = 500;

/**
 * The calls the sweep checks: accepted, not ended (a guest stamped gone may be back: its stamp is taken
 * back), created in [from, to], not continued by a resumed call; only those of `rooms` when given. It
 * reads the partial index of open calls and the index of previous_call_id (migration 0008), never the
 * whole table (test/db/indexes.test.ts).
 */
export function openCallsToCheck(db: Kysely<Database>, created: { from: number; to: number }, rooms?: string[]) {
  let query = db
    .selectFrom('call_reports as r')
    .select(['r.id', 'r.call_id', 'r.guest_username', 'r.room_jid', 'r.guest_exit_at', 'r.created_at'])
    .where('r.status', '=', 'ok')
    .where('r.call_ended_at', 'is', null)
    .where('r.room_jid', 'is not', null)
    .where('r.created_at', '>=', created.from)
    .where('r.created_at', '<=', created.to)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('call_reports as next').select('next.id').whereRef('next.previous_call_id', '=', 'r.call_id'))));
  if (rooms) query = query.where('r.room_jid', 'in', rooms);
  return query;
}

type OpenCall = Awaited<ReturnType<ReturnType<typeof openCallsToCheck>['execute']>>[number];

/** A room followed: its guest left it (count from `countFrom` unless ejabberd could not say since), or joined it. */
interface Suspect {
  kind: 'left' | 'joined';
  /** when it was put under suspicion */
  at: number;
  /** start of the guest's absence as far as ejabberd has answered in a row */
  countFrom?: number;
}

const roomName = (roomJid: string) => roomJid.split('@')[0] ?? '';
const userOf = (jid: string) => jid.split('@')[0];

export function createVanishedGuestSweep(deps: {
  db: Kysely<Database>;
  ejabberd: Pick<EjabberdClient, 'roomOccupants' | 'roomGuests'>;
  now: () => number;
  /** calls older than this are no longer open anyway (LOBBY_OPEN_CALL_HOURS) */
  openMs: number;
  graceMs?: number;
  absentMs?: number;
  /** how often every open call is checked against one listing of ejabberd's rooms (a lost event's backstop) */
  backstopMs?: number;
  /** how long every ejabberd node must have answered before a guest missing is stamped gone (a lost node's rooms being joined again) */
  rejoinGraceMs?: number;
  /**
   * A call whose guest is taken for gone leaves what follows open calls in memory (round robin's offers:
   * nobody can answer it; a guest seen back later is open to every agent of its assignment, as any call
   * round robin no longer offers)
   */
  callGone?: (callId: string) => void;
  /** the backstop runs only while this instance holds it (one instance at a time); always without one */
  backstopLock?: JobLock;
  log?: (message: string, error?: unknown) => void;
}): VanishedGuestSweep {
  const graceMs = deps.graceMs ?? 5000;
  const absentMs = deps.absentMs ?? 20_000;
  const backstopMs = deps.backstopMs ?? 60_000;
  const rejoinGraceMs = deps.rejoinGraceMs ?? 30_000;
  /** room JID → why it is followed */
  const suspects = new Map<string, Suspect>();
  let lastBackstop = -Infinity;
  /** when a listing of every node last could not be made (a node down) */
  let unsureAt = -Infinity;

  /** `room|user` of every guest in a room on every node; null (and the time noted) while a node does not answer */
  async function listGuests(now: number): Promise<Set<string> | null> {
    const listing = await deps.ejabberd.roomGuests();
    if (!listing) {
      unsureAt = now;
      return null;
    }
    return new Set(listing.map((g) => `${g.room}|${g.user}`));
  }

  /** Every open call against one listing: a guest missing is followed, a guest stamped gone but listed is taken back. */
  async function backstop(now: number): Promise<void> {
    const here = await listGuests(now);
    if (!here) return;
    for (const call of await openCallsToCheck(deps.db, { from: now - deps.openMs, to: now - graceMs }).execute()) {
      const room = call.room_jid ?? '';
      // an event since the listing was asked for knows better
      if (!room || suspects.has(room)) continue;
      const listed = here.has(`${roomName(room)}|${call.guest_username}`);
      if (!listed && call.guest_exit_at === null) suspects.set(room, { kind: 'left', at: now, countFrom: now });
      if (listed && call.guest_exit_at !== null) suspects.set(room, { kind: 'joined', at: now });
    }
  }

  async function followedCalls(now: number): Promise<Map<string, OpenCall[]>> {
    const rooms = [...suspects.keys()];
    const byRoom = new Map<string, OpenCall[]>();
    for (let i = 0; i < rooms.length; i += ROOMS_PER_QUERY) {
      const calls = await openCallsToCheck(deps.db, { from: now - deps.openMs, to: now }, rooms.slice(i, i + ROOMS_PER_QUERY)).execute();
      for (const call of calls) byRoom.set(call.room_jid ?? '', [...(byRoom.get(call.room_jid ?? '') ?? []), call]);
    }
    return byRoom;
  }

  async function sweep(): Promise<string[]> {
    const now = deps.now();
    if (now - lastBackstop >= backstopMs) {
      lastBackstop = now;
      // (an instance without the lock asks again at the next backstop's time)
      if (!deps.backstopLock || (await deps.backstopLock.held())) await backstop(now);
    }
    if (suspects.size === 0) return [];
    const byRoom = await followedCalls(now);
    /** one listing of every node per sweep, asked only when a guest is about to be stamped gone */
    let listing: Set<string> | null | undefined;
    const stamped: string[] = [];
    const back: string[] = [];
    for (const [room, suspect] of [...suspects]) {
      const calls = byRoom.get(room) ?? [];
      if (calls.length === 0) {
        // no open call (yet: the guest joins before it calls): nothing to close
        if (now - suspect.at >= graceMs) suspects.delete(room);
        continue;
      }
      if (suspect.kind === 'joined') {
        back.push(...(await takeBack(calls)));
        suspects.delete(room);
        continue;
      }
      const ripe = calls.filter((c) => c.created_at <= now - graceMs);
      if (ripe.length === 0) continue;
      const occupants = await deps.ejabberd.roomOccupants(roomName(room));
      if (suspects.get(room) !== suspect) continue; // an event came meanwhile: it is followed afresh
      if (!occupants) {
        // ejabberd cannot say (down, restarting, or no such room): once it answers, its rooms fill again as
        // guests reconnect; a guest still missing then is found by the backstop, its count starting afresh
        suspects.delete(room);
        continue;
      }
      const guest = ripe[0]?.guest_username;
      if (occupants.some((jid) => userOf(jid) === guest)) {
        back.push(...(await takeBack(ripe)));
        suspects.delete(room);
        continue;
      }
      const since = (suspect.countFrom ??= now);
      const pending = ripe.filter((c) => c.guest_exit_at === null);
      if (pending.length === 0 || now - since < absentMs) {
        if (pending.length === 0) suspects.delete(room);
        continue;
      }
      // every node must say so, and have said so for the grace: the room may be on a node that is down,
      // or on its way back to another one (its guest rejoining it)
      listing ??= await listGuests(now);
      if (!listing || now - unsureAt < rejoinGraceMs) continue;
      if (listing.has(`${roomName(room)}|${guest}`)) {
        suspects.delete(room);
        continue;
      }
      for (const call of pending) {
        await deps.db.updateTable('call_reports').set({ guest_exit_at: since }).where('id', '=', call.id).where('guest_exit_at', 'is', null).execute();
        stamped.push(call.call_id);
        deps.callGone?.(call.call_id);
      }
      suspects.delete(room);
    }
    if (stamped.length) deps.log?.(`guests gone from their rooms, calls closed: ${stamped.join(', ')}`);
    if (back.length) deps.log?.(`guests back in their rooms, calls open again: ${back.join(', ')}`);
    return stamped;
  }

  /** The guest is in its room: its calls stamped gone are open again, unless it opened a later call since. */
  async function takeBack(calls: OpenCall[]): Promise<string[]> {
    const back: string[] = [];
    for (const call of calls) {
      if (call.guest_exit_at === null || (await hasLaterCall(call))) continue;
      await deps.db.updateTable('call_reports').set({ guest_exit_at: null }).where('id', '=', call.id).where('call_ended_at', 'is', null).execute();
      back.push(call.call_id);
    }
    return back;
  }

  /** The guest opened another call since (it came back on a new page): the old one stays closed. */
  async function hasLaterCall(call: { guest_username: string; created_at: number }): Promise<boolean> {
    const later = await deps.db
      .selectFrom('call_reports')
      .select('id')
      .where('guest_username', '=', call.guest_username)
      .where('created_at', '>', call.created_at)
      .executeTakeFirst();
    return later !== undefined;
  }

  const job = createPeriodicJob('vanished-guest sweep', sweep, deps.log);
  return {
    ...job,
    left(roomJid) {
      // a second resource leaving does not restart the count of the first
      if (suspects.get(roomJid)?.kind === 'left') return;
      const now = deps.now();
      suspects.set(roomJid, { kind: 'left', at: now, countFrom: now });
    },
    joined(roomJid) {
      suspects.set(roomJid, { kind: 'joined', at: deps.now() });
    },
  };
}
