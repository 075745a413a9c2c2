/**
 * Guest rooms are members-only and get the assignment's agents as admins when the guest registers
 * (services/guests.ts). An agent added to an assignment later must also get into the rooms that already
 * exist for it, and an agent removed from it must lose them: the admin routes call this after changing
 * who serves an assignment.
 */
import type { Services } from './index.ts';

export interface MembershipChange {
  assignmentId: number;
  xmppUsername: string;
  affiliation: 'admin' | 'none';
}

/** The changes between the agents serving an assignment before and after (XMPP usernames). */
export function agentChanges(assignmentId: number, before: string[], after: string[]): MembershipChange[] {
  const was = new Set(before);
  const now = new Set(after);
  return [
    ...after.filter((u) => !was.has(u)).map((xmppUsername) => ({ assignmentId, xmppUsername, affiliation: 'admin' as const })),
    ...before.filter((u) => !now.has(u)).map((xmppUsername) => ({ assignmentId, xmppUsername, affiliation: 'none' as const })),
  ];
}

/** The changes for one user whose assignments went from `before` to `after`. */
export function userChanges(xmppUsername: string, before: number[], after: number[]): MembershipChange[] {
  const was = new Set(before);
  const now = new Set(after);
  return [
    ...after.filter((a) => !was.has(a)).map((assignmentId) => ({ assignmentId, xmppUsername, affiliation: 'admin' as const })),
    ...before.filter((a) => !now.has(a)).map((assignmentId) => ({ assignmentId, xmppUsername, affiliation: 'none' as const })),
  ];
}

/** Applies the changes to every existing guest room of the assignments, a few rooms at a time. */
export async function applyMembership(services: Services, changes: MembershipChange[]): Promise<void> {
  const { db, config, ejabberd } = services;
  for (const change of changes) {
    const rooms = await db.kysely.selectFrom('guest_rooms').select('room_jid').where('assignment_id', '=', change.assignmentId).execute();
    const jid = `${change.xmppUsername}@${config.xmppDomain}`;
    const names = rooms.map((r) => r.room_jid.split('@')[0] ?? r.room_jid);
    for (let i = 0; i < names.length; i += 8) {
      await Promise.all(names.slice(i, i + 8).map((room) => ejabberd.setAffiliation(room, jid, change.affiliation)));
    }
  }
}
