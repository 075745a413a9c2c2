/**
 * Guests who vanished (issue 15 defect 9): a browser closed or crashed says nothing — its pagehide
 * beacon (guest_exit_timestamp) is not sent when the browser dies, and is not always sent when a tab is
 * killed — but ejabberd drops the guest from its room within a second (the websocket closes) or at its
 * ping timeout, and the agents' queue follows the room. The server learns the same from ejabberd: every
 * few seconds it asks for the occupants of the rooms of open calls, and stamps guest_exit_at on each call
 * whose guest is no longer in its room. The reports then count the call as abandoned (unanswered) or
 * ended (answered) instead of "Waiting or open" for hours (docs/operations.md).
 *
 * Only calls older than `graceMs` (the guest joins its room before it opens the call), not ended and not
 * continued by a resumed call (a held part ends when the next part begins) are checked.
 *
 * An XMPP drop is not the guest leaving (issue 12): when ejabberd restarts, every room is empty until
 * the guests reconnect (their backoff waits up to 10 s between attempts, SPEC.md §9), and a guest's own
 * connection may drop and come back. So a guest is taken for gone only once it has been missing from its
 * room for `absentMs` (20 s) of ejabberd's answers in a row — a room ejabberd cannot answer about (down,
 * restarting) starts its count again — and guest_exit_at is the time it was first seen missing. A guest
 * seen in its room again while its call is still open was not gone: the stamp is taken back.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EjabberdClient } from './ejabberd.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

/** runOnce() checks every open call once and resolves with the call ids stamped. */
export type VanishedGuestSweep = PeriodicJob<string[]>;

/**
 * The calls the sweep checks: accepted, not ended (a guest stamped gone may be back: its stamp is taken
 * back), created in [from, to], not continued by a resumed call. Runs every few seconds: it reads the partial index of open calls and the index of
 * previous_call_id (migration 0008), never the whole table (test/db/indexes.test.ts).
 */
export function openCallsToCheck(db: Kysely<Database>, created: { from: number; to: number }) {
  return db
    .selectFrom('call_reports as r')
    .select(['r.id', 'r.call_id', 'r.guest_username', 'r.room_jid', 'r.guest_exit_at', 'r.created_at'])
    .where('r.status', '=', 'ok')
    .where('r.call_ended_at', 'is', null)
    .where('r.room_jid', 'is not', null)
    .where('r.created_at', '>=', created.from)
    .where('r.created_at', '<=', created.to)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('call_reports as next').select('next.id').whereRef('next.previous_call_id', '=', 'r.call_id'))));
}

export function createVanishedGuestSweep(deps: {
  db: Kysely<Database>;
  ejabberd: Pick<EjabberdClient, 'roomOccupants'>;
  now: () => number;
  /** calls older than this are no longer open anyway (LOBBY_OPEN_CALL_HOURS) */
  openMs: number;
  graceMs?: number;
  absentMs?: number;
  /**
   * A call whose guest is taken for gone leaves what follows open calls in memory (round robin's offers:
   * nobody can answer it; a guest seen back later is open to every agent of its assignment, as any call
   * round robin no longer offers)
   */
  callGone?: (callId: string) => void;
  log?: (message: string, error?: unknown) => void;
}): VanishedGuestSweep {
  const graceMs = deps.graceMs ?? 5000;
  const absentMs = deps.absentMs ?? 20_000;
  /** call id → when its guest was first seen missing from its room (ejabberd answering since) */
  const missingSince = new Map<string, number>();

  async function sweep(): Promise<string[]> {
    const now = deps.now();
    const open = await openCallsToCheck(deps.db, { from: now - deps.openMs, to: now - graceMs }).execute();
    const stamped: string[] = [];
    const back: string[] = [];
    const byRoom = new Map<string, string[] | null>();
    for (const call of open) {
      const room = (call.room_jid ?? '').split('@')[0] ?? '';
      if (!room) continue;
      if (!byRoom.has(room)) byRoom.set(room, await deps.ejabberd.roomOccupants(room));
      const occupants = byRoom.get(room);
      if (!occupants) {
        // ejabberd cannot say (down, restarting): once it answers, its rooms fill again as guests reconnect
        missingSince.delete(call.call_id);
        continue;
      }
      const here = occupants.some((jid) => jid.split('@')[0] === call.guest_username);
      if (here) {
        missingSince.delete(call.call_id);
        if (call.guest_exit_at !== null && !(await hasLaterCall(call))) {
          await deps.db.updateTable('call_reports').set({ guest_exit_at: null }).where('id', '=', call.id).where('call_ended_at', 'is', null).execute();
          back.push(call.call_id);
        }
        continue;
      }
      if (call.guest_exit_at !== null) continue;
      const since = missingSince.get(call.call_id) ?? now;
      missingSince.set(call.call_id, since);
      if (now - since < absentMs) continue;
      await deps.db.updateTable('call_reports').set({ guest_exit_at: since }).where('id', '=', call.id).where('guest_exit_at', 'is', null).execute();
      missingSince.delete(call.call_id);
      stamped.push(call.call_id);
      deps.callGone?.(call.call_id);
    }
    // calls no longer open are no longer followed
    const openIds = new Set(open.map((c) => c.call_id));
    for (const callId of missingSince.keys()) if (!openIds.has(callId)) missingSince.delete(callId);
    if (stamped.length) deps.log?.(`guests gone from their rooms, calls closed: ${stamped.join(', ')}`);
    if (back.length) deps.log?.(`guests back in their rooms, calls open again: ${back.join(', ')}`);
    return stamped;
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

  return createPeriodicJob('vanished-guest sweep', sweep, deps.log);
}
