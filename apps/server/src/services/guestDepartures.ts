/**
 * A guest's rooms go once it has left for good (docs/operations.md "Guest rooms nobody can use any
 * more"): each registration provisions a persistent room per assignment (≈ 100 KB each in ejabberd, all
 * reloaded at every ejabberd start), and waiting for the janitor's LOBBY_OPEN_CALL_HOURS
 * (services/guestRoomJanitor.ts) kept about 1 GB per 5,000 visitors for four hours.
 *
 * ejabberd posts when a guest's XMPP session ends and when one opens (mod_lobby_events, POST
 * /api/ejabberd-events: `offline`, `online`). A guest offline for `graceMs` (2 min: a page reload, a
 * network blip, an ejabberd restart's reconnection all come back well within it) has left for good when
 * also:
 * - no call of its is open (neither ended nor stamped left: services/vanishedGuests.ts);
 * - ejabberd says it has no session now (an `online` event may have been lost; null: ask again later).
 * Then each of its rooms provisioned before it went offline is destroyed and forgotten; a room provisioned
 * since belongs to a page that registered again and stays. A guest that comes back later with its
 * guestId gets its rooms again: registration and guest auth provision a missing room
 * (services/guests.ts). Events lost while the server restarts leave the rooms to the janitor.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hasOpenCall } from '../repositories/callReports.ts';
import type { GuestsRepository } from '../repositories/guests.ts';
import type { EjabberdClient } from './ejabberd.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

/** runOnce() destroys the rooms of the guests gone for good; resolves with the room JIDs destroyed. */
export interface GuestDepartures extends PeriodicJob<string[]> {
  /** ejabberd: the guest's session ended */
  offline(username: string): void;
  /** ejabberd: a session of the guest opened */
  online(username: string): void;
}

export function createGuestDepartures(deps: {
  db: Kysely<Database>;
  guests: Pick<GuestsRepository, 'roomsOfProvisionedBefore' | 'forgetRoom'>;
  ejabberd: Pick<EjabberdClient, 'guestOnline' | 'destroyRoom'>;
  now: () => number;
  /** calls older than this are no longer open anyway (LOBBY_OPEN_CALL_HOURS) */
  openMs: number;
  graceMs?: number;
  log?: (message: string, error?: unknown) => void;
}): GuestDepartures {
  const graceMs = deps.graceMs ?? 120_000;
  /** guest username → when its session ended */
  const offlineSince = new Map<string, number>();

  async function sweep(): Promise<string[]> {
    const now = deps.now();
    const destroyed: string[] = [];
    for (const [username, since] of [...offlineSince]) {
      if (now - since < graceMs) continue;
      // a call still open is the vanished-guest sweep's to close first; asked again at the next run
      if (await hasOpenCall(deps.db, { guest_username: username }, deps.now() - deps.openMs)) continue;
      const online = await deps.ejabberd.guestOnline(username);
      if (online === null) continue;
      if (offlineSince.get(username) !== since) continue; // an event came meanwhile
      offlineSince.delete(username);
      if (online) continue;
      try {
        for (const room of await deps.guests.roomsOfProvisionedBefore(username, since)) {
          await deps.ejabberd.destroyRoom(room.room.split('@')[0] ?? '');
          await deps.guests.forgetRoom(username, room.assignmentId, since);
          destroyed.push(room.room);
        }
      } catch (error) {
        // ejabberd stopped answering: tried again at the next run, unless the guest came back meanwhile
        if (!offlineSince.has(username)) offlineSince.set(username, since);
        deps.log?.(`rooms of guest ${username} not destroyed`, error);
      }
    }
    if (destroyed.length) deps.log?.(`rooms of guests gone for good, destroyed: ${destroyed.length}`);
    return destroyed;
  }

  const job = createPeriodicJob('guest departures', sweep, deps.log);
  return {
    ...job,
    offline(username) {
      offlineSince.set(username, deps.now());
    },
    online(username) {
      offlineSince.delete(username);
    },
  };
}
