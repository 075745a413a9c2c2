/**
 * A guest's open calls (docs/security.md "Open calls"): a guest has at most one, and a company takes at
 * most `maxOpenCallsPerAddress` at once from one network address. The server ends a guest's calls itself
 * when a newer call of the guest replaces them (POST /api/call-report/add, hold-call) and when an admin
 * blocks the guest: the report is stamped ended by the guest, round robin stops offering it, its Janus room
 * is destroyed, and (a block) the guest is put out of its rooms, which the consoles' queues follow.
 */
import crypto from 'node:crypto';
import type { Services } from './index.ts';

export interface OpenCallRef {
  id: number;
  call_id: string;
  room_jid: string | null;
}

/**
 * The address as stored with a call: keyed (HMAC with the server's API token secret), so the reports hold
 * no address, and nobody can list the addresses back from them.
 */
export function addressKey(services: Pick<Services, 'config'>, ip: string): string {
  return crypto.createHmac('sha256', services.config.apiTokenSecret).update(`open-call-address:${ip}`).digest('base64url').slice(0, 32);
}

/** Calls opened more than LOBBY_OPEN_CALL_HOURS ago are not open any more (the consoles no longer list them). */
export const openSince = (services: Pick<Services, 'config' | 'now'>) => services.now() - services.config.openCallHours * 3_600_000;

/** Ends these calls for their guest: stamped ended and left, out of round robin, their Janus rooms destroyed. */
export async function endCallsForGuest(services: Pick<Services, 'repos' | 'roundRobin' | 'mediaRooms' | 'now'>, calls: OpenCallRef[]): Promise<void> {
  if (calls.length === 0) return;
  await services.repos.callReports.endForGuest(
    calls.map((c) => c.id),
    services.now(),
  );
  for (const c of calls) await services.roundRobin.callClosed(c.call_id);
  await Promise.all(calls.map((c) => services.mediaRooms.end(c.call_id)));
}
