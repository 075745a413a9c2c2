import type { UserRow } from '../repositories/users.ts';
import type { CallOpenedEvent, CallTransferEvent } from './events.ts';
import type { Services } from './index.ts';
import type { CallRouting } from './roundRobin.ts';

/**
 * Who sees which call (docs/protocol.md): a console user sees the calls of its company only, and of them
 * - an agent: the calls of its own assignments; admins and supervisors: every assignment of the company;
 * - an appointment call: its agent alone, whatever the assignment;
 * - where a waiting call stands in round robin: the users who see its assignment;
 * - a transfer: the user it is for, or the agents serving the assignment it is for (never its sender);
 *   that a transfer was taken: everyone of the company.
 * The console's room list, its event stream and its answers go through these rules and no other.
 */

/** The assignments whose calls a console user sees. */
export async function visibleAssignments(repos: Services['repos'], user: UserRow): Promise<number[]> {
  if (user.role === 'agent') return repos.users.assignmentIds(user.id);
  return (await repos.companies.assignments(user.companyId)).map((a) => a.id);
}

/** What one console user sees, fixed for one look (a room list) or refreshed by its event stream. */
export interface Viewer {
  user: UserRow;
  jid: string;
  /** the assignments whose calls it sees (visibleAssignments; an event stream refreshes them) */
  visible: ReadonlySet<number>;
  /** the assignments it serves itself (transfers to an assignment reach these agents) */
  served: ReadonlySet<number>;
}

/** A console user's viewer: the assignments it sees and serves now. */
export async function viewerOf(services: Pick<Services, 'repos' | 'config'>, user: UserRow): Promise<Viewer> {
  return {
    user,
    jid: `${user.xmppUsername}@${services.config.xmppDomain}`,
    visible: new Set(await visibleAssignments(services.repos, user)),
    served: new Set(await services.repos.users.assignmentIds(user.id)),
  };
}

export function seesOpenedCall(v: Viewer, e: CallOpenedEvent): boolean {
  if (e.companyId !== v.user.companyId || e.assignmentId === null || e.room === null) return false;
  if (e.appointmentAgent) return e.appointmentAgent === v.user.xmppUsername;
  return v.visible.has(e.assignmentId);
}

/** A call's round-robin state, in the room list or as it changes. */
export function seesRouting(v: Pick<Viewer, 'user' | 'visible'>, r: Pick<CallRouting, 'companyId' | 'assignmentId'>): boolean {
  return r.companyId === v.user.companyId && v.visible.has(r.assignmentId);
}

export function seesTransfer(v: Viewer, e: CallTransferEvent): boolean {
  if (e.companyId !== v.user.companyId || e.fromJid === v.jid) return false;
  return e.toUserId === v.user.id || (e.toAssignmentId !== null && v.served.has(e.toAssignmentId));
}

export function seesTransferAccepted(v: Viewer, e: { companyId: number }): boolean {
  return e.companyId === v.user.companyId;
}
