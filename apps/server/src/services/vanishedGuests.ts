/**
 * Guests who vanished (issue 15 defect 9): a browser closed or crashed says nothing — its pagehide
 * beacon (guest_exit_timestamp) is not sent when the browser dies, and is not always sent when a tab is
 * killed — but ejabberd drops the guest from its room within a second (the websocket closes) or at its
 * ping timeout, and the agents' queue follows the room. The server learns the same from ejabberd: every
 * few seconds it asks for the occupants of the rooms of open calls, and stamps guest_exit_at on each call
 * whose guest is no longer in its room. The reports then count the call as abandoned (unanswered) or
 * ended (answered) instead of "Waiting or open" for hours (docs/operations.md).
 *
 * Only calls older than `graceMs` (the guest joins its room before it opens the call, and may be
 * reconnecting for a few seconds), not ended, not exited and not continued by a resumed call (a held part
 * ends when the next part begins) are checked. A room ejabberd cannot answer about is left alone.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EjabberdClient } from './ejabberd.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

/** runOnce() checks every open call once and resolves with the call ids stamped. */
export type VanishedGuestSweep = PeriodicJob<string[]>;

/**
 * The calls the sweep checks: accepted, not ended, guest not gone, created in [from, to], not continued
 * by a resumed call. Runs every few seconds: it reads the partial index of open calls and the index of
 * previous_call_id (migration 0008), never the whole table (test/db/indexes.test.ts).
 */
export function openCallsToCheck(db: Kysely<Database>, created: { from: number; to: number }) {
  return db
    .selectFrom('call_reports as r')
    .select(['r.id', 'r.call_id', 'r.guest_username', 'r.room_jid'])
    .where('r.status', '=', 'ok')
    .where('r.call_ended_at', 'is', null)
    .where('r.guest_exit_at', 'is', null)
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
  log?: (message: string, error?: unknown) => void;
}): VanishedGuestSweep {
  const graceMs = deps.graceMs ?? 5000;

  async function sweep(): Promise<string[]> {
    const now = deps.now();
    const open = await openCallsToCheck(deps.db, { from: now - deps.openMs, to: now - graceMs }).execute();
    const stamped: string[] = [];
    const byRoom = new Map<string, string[] | null>();
    for (const call of open) {
      const room = (call.room_jid ?? '').split('@')[0] ?? '';
      if (!room) continue;
      if (!byRoom.has(room)) byRoom.set(room, await deps.ejabberd.roomOccupants(room));
      const occupants = byRoom.get(room);
      if (!occupants) continue;
      const here = occupants.some((jid) => jid.split('@')[0] === call.guest_username);
      if (here) continue;
      await deps.db.updateTable('call_reports').set({ guest_exit_at: now }).where('id', '=', call.id).where('guest_exit_at', 'is', null).execute();
      stamped.push(call.call_id);
    }
    if (stamped.length) deps.log?.(`guests gone from their rooms, calls closed: ${stamped.join(', ')}`);
    return stamped;
  }

  return createPeriodicJob('vanished-guest sweep', sweep, deps.log);
}
