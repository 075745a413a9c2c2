import type { Selectable } from 'kysely';
import type { CallReportsTable } from '../db/schema.ts';
import { createAppointmentsRepository } from '../repositories/appointments.ts';
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
 * - taking a call's media (answering, joining as a supervisor, following a resume): mayTakeCall.
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

/**
 * The call's agent as the server recorded it: set by the first media grant (markAgentAnswered) or a
 * transfer's accept. Before any grant, the report's `agent` is only what the guest reported (PUT
 * /call-report/update), so it names nobody: a guest must not pick who may take or block its call.
 */
export function recordedAgent(report: Pick<Selectable<CallReportsTable>, 'agent' | 'agent_answered_at'>): string | null {
  return report.agent_answered_at !== null ? report.agent : null;
}

/** Whether a report's agent (a jid, maybe with a resource; null before anyone answered) is this console user. */
export function isReportAgent(reportAgent: string | null, xmppUsername: string): boolean {
  return reportAgent !== null && reportAgent.split('@')[0]!.toLowerCase() === xmppUsername.toLowerCase();
}

/**
 * Whether a console user of the call's company may take the call's media (POST
 * /api/console/calls/{callId}/media): its recorded agent (the one who answered, or took it by transfer;
 * also the agent of the held call a resume continues), else whoever sees the call (seesOpenedCall's rules): an
 * appointment call's own agent; another call's assignment's agents, supervisors and admins. So an agent
 * of another assignment cannot enter a conversation it was never shown.
 */
export async function mayTakeCall(
  services: Pick<Services, 'repos' | 'db' | 'now'>,
  user: UserRow,
  report: Pick<Selectable<CallReportsTable>, 'company_id' | 'agent' | 'agent_answered_at' | 'previous_call_id' | 'appointment_reference' | 'assignment_id'>,
): Promise<boolean> {
  if (report.company_id !== user.companyId) return false;
  if (isReportAgent(recordedAgent(report), user.xmppUsername)) return true;
  if (report.previous_call_id) {
    const held = await services.repos.callReports.byCallId(report.previous_call_id);
    if (held?.company_id === user.companyId && isReportAgent(recordedAgent(held), user.xmppUsername)) return true;
  }
  if (report.appointment_reference) {
    const appointment = await createAppointmentsRepository(services.db.kysely, services.now).byReference(report.appointment_reference);
    return appointment?.companyId === user.companyId && appointment.agentXmppUsername.toLowerCase() === user.xmppUsername.toLowerCase();
  }
  return report.assignment_id !== null && (await visibleAssignments(services.repos, user)).includes(report.assignment_id);
}
