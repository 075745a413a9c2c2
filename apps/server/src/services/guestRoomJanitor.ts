/**
 * Guest rooms are destroyed once nobody can use them: registration creates one persistent room per
 * assignment (≈ 100 KB each in ejabberd, all reloaded at every ejabberd start). A guest gone for good
 * loses its rooms two minutes after its session ended (services/guestDepartures.ts, on ejabberd's
 * events); this janitor is the backstop for the rest — events lost while the server restarted, guests
 * that registered and never connected.
 *
 * A room may go when all of these hold:
 * - it was last provisioned (registration or guest auth, which re-create a missing room and stamp it)
 *   longer ago than a call stays open (`keepMs`, LOBBY_OPEN_CALL_HOURS): every credential issued with it
 *   has expired (XMPP 1 h, API 2 h), so the guest cannot join it again without provisioning it again;
 * - no call in it is still open (neither ended nor exited) — a call's reports are kept, only the room goes;
 * - ejabberd says who is in it and the guest is not (a session connected before its credential expired
 *   may still sit there). Agents still in it are told the room is destroyed (the call is over anyway).
 * Nothing is done while ejabberd is down; a room it does not know (already gone) is only forgotten.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hasOpenCall } from '../repositories/callReports.ts';
import type { GuestsRepository } from '../repositories/guests.ts';
import type { EjabberdClient } from './ejabberd.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

/** runOnce() resolves with the room JIDs destroyed. */
export type GuestRoomJanitor = PeriodicJob<string[]>;

/** rooms looked at per run: a backlog (the first run after an upgrade) is worked off over several runs */
const ROOMS_PER_RUN = 500;

export function createGuestRoomJanitor(deps: {
  db: Kysely<Database>;
  guests: Pick<GuestsRepository, 'roomsProvisionedBefore' | 'forgetRoom'>;
  ejabberd: Pick<EjabberdClient, 'roomOccupants' | 'destroyRoom' | 'status'>;
  now: () => number;
  keepMs: number;
  log?: (message: string, error?: unknown) => void;
}): GuestRoomJanitor {
  async function sweep(): Promise<string[]> {
    const before = deps.now() - deps.keepMs;
    const destroyed: string[] = [];
    if (!(await deps.ejabberd.status())) return destroyed;
    for (const room of await deps.guests.roomsProvisionedBefore(before, ROOMS_PER_RUN)) {
      const name = room.room.split('@')[0] ?? '';
      if (!name || (await hasOpenCall(deps.db, { room_jid: room.room }, deps.now() - deps.keepMs))) continue;
      const occupants = await deps.ejabberd.roomOccupants(name);
      if (occupants?.some((jid) => jid.split('@')[0] === room.username)) continue;
      // null with ejabberd up: it has no such room (destroyed already, or its data was reset)
      if (occupants !== null) await deps.ejabberd.destroyRoom(name);
      await deps.guests.forgetRoom(room.username, room.assignmentId, before);
      destroyed.push(room.room);
    }
    if (destroyed.length) deps.log?.(`guest rooms nobody can use any more, destroyed: ${destroyed.length}`);
    return destroyed;
  }

  return createPeriodicJob('guest-room janitor', sweep, deps.log);
}
