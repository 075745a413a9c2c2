import { guestRoomName } from '@lobby/contracts';
import type { CallReportAddBody, CallReportAdded } from '@lobby/contracts';
import type { Static } from '@sinclair/typebox';
import { createAppointmentsRepository } from '../repositories/appointments.ts';
import { DuplicateCallId } from '../repositories/callReports.ts';
import { ownsCallId } from './callOwnership.ts';
import { callRefusal } from './callRules.ts';
import type { Services } from './index.ts';
import { addressKey, endCallsForGuest, openSince } from './openCalls.ts';
import type { GuestClaims } from './tokens.ts';

export type OpenCallRequest = Static<typeof CallReportAddBody>;

/** The call's report was added (its status says whether the call goes on), or why not (`field: reason`). */
export type OpenCallOutcome = { added: CallReportAdded } | { refused: { statusCode: 400 | 403 | 409 | 429; message: string } };

const refused = (statusCode: 400 | 403 | 409 | 429, message: string): OpenCallOutcome => ({ refused: { statusCode, message } });

/**
 * Opening a call (POST /api/call-report/add): the caller owns the call id and the company; the company's
 * rules let it call (services/callRules.ts); the report is added with its status (ok | outOfQuota |
 * blocked: services/reportStatus.ts); a call that goes on is announced to the consoles that see it
 * (services/callVisibility.ts) and, when the company routes by round robin, offered to one agent at a time.
 * An appointment call instead reaches its agent alone, who becomes an admin of the guest's room.
 *
 * A guest has one open call (services/openCalls.ts): an accepted call ends the guest's earlier open ones
 * (a page loaded again, a call started after another), and the company takes at most
 * `maxOpenCallsPerAddress` open calls from one address (`address`: the client's, as Fastify trusts it).
 * The route runs one guest's openings one at a time, so that two at once cannot both stay open.
 */
export async function openCall(services: Services, guest: GuestClaims, body: OpenCallRequest, address: string): Promise<OpenCallOutcome> {
  const { repos, config } = services;
  if (!ownsCallId(guest, body.call_id)) return refused(403, 'call_id: must be <your username>--<suffix>');
  if (body.company !== guest.companyId) return refused(403, 'company: not the company of your access_token');
  const snapshot = await services.companySnapshots.get(guest.companyId);
  const refusal = await callRefusal(services, guest, body.service_type ?? 'talk', snapshot?.company ?? null);
  if (refusal || !snapshot) return refused(403, refusal ?? 'company: not activated');

  const { company, assignments } = snapshot;
  let assignment = assignments[0] ?? null;
  if (body.assignment_id !== undefined) {
    assignment = assignments.find((a) => a.id === body.assignment_id) ?? null;
    if (!assignment) return refused(400, 'assignment_id: no such assignment in this company');
  }
  // An appointment call: the reference must be one of this company's; its agent (who may serve another
  // assignment) becomes an admin of the guest's room, so it can join it, and only it is told of the call.
  let appointmentAgent: string | null = null;
  if (body.appointment_reference !== undefined) {
    const appointment = await createAppointmentsRepository(services.db.kysely, services.now).byReference(body.appointment_reference);
    if (!appointment || appointment.companyId !== guest.companyId) {
      return refused(400, 'appointment_reference: no such appointment in this company');
    }
    appointmentAgent = appointment.agentXmppUsername;
  }
  const now = services.now();
  const status = await services.reportStatus(services.db.kysely, {
    companyId: guest.companyId,
    guestUsername: guest.username,
    assignmentId: assignment?.id ?? null,
    now,
    quotas: snapshot.quotas,
    blocked: snapshot.blocked,
  });
  const room = assignment ? `${guestRoomName(assignment.id, guest.username)}@${config.xmppMucDomain}` : null;
  const openedFrom = addressKey(services, address);
  const since = openSince(services);
  const cap = company.settings.maxOpenCallsPerAddress;
  // the guest's own open calls are replaced below: they do not count against its address
  if (status === 'ok' && cap > 0 && (await repos.callReports.openFromAddress(guest.companyId, openedFrom, since, guest.username)) >= cap) {
    return refused(429, `address: the company takes at most ${cap} open calls from one address; try again when one has ended`);
  }
  const earlier = status === 'ok' ? await repos.callReports.openOfGuest(guest.companyId, guest.username, since) : [];
  let id: number;
  try {
    id = await repos.callReports.add({
      callId: body.call_id,
      companyId: guest.companyId,
      guestUsername: guest.username,
      assignmentId: assignment?.id ?? null,
      roomJid: room,
      source: body.source,
      appointmentReference: body.appointment_reference ?? null,
      serviceType: body.service_type ?? null,
      status,
      now,
      location: body.location ?? null,
      openedFrom,
    });
  } catch (err) {
    if (err instanceof DuplicateCallId) return refused(409, 'call_id: this call was already reported');
    throw err;
  }
  // the new call replaces the guest's earlier open ones: ended by the guest, out of the queue
  await endCallsForGuest(services, earlier);
  // before any agent hears of the call, so before any media can be recorded
  if (status === 'ok' && body.recording_acknowledged === true) await repos.recordingPrivacy.setConsent(body.call_id, now);
  if (status === 'ok' && appointmentAgent && assignment) {
    await services.ejabberd.setAffiliation(guestRoomName(assignment.id, guest.username), `${appointmentAgent}@${config.xmppDomain}`, 'admin');
  }
  if (status === 'ok') {
    services.events.publish('callOpened', {
      ...(appointmentAgent ? { appointmentAgent } : {}),
      companyId: guest.companyId,
      assignmentId: assignment?.id ?? null,
      assignmentName: assignment?.name ?? null,
      room,
      guestUsername: guest.username,
      callId: body.call_id,
      reportId: id,
      openedAt: now,
    });
    services.events.publish('callStats', { companyId: guest.companyId });
    // round robin (not for appointments, which have their agent): offer the call to one agent at a time
    if (!appointmentAgent && assignment) {
      if (company.settings.roundRobin) {
        await services.roundRobin.callOpened({
          callId: body.call_id,
          companyId: guest.companyId,
          assignmentId: assignment.id,
          offerSeconds: company.settings.roundRobinOfferSeconds,
        });
      }
    }
  }
  return { added: { id, status } };
}
