import { parseCallId } from '@lobby/contracts';
import type { FastifyReply } from 'fastify';
import { fail } from '../http/errors.ts';
import type { Services } from './index.ts';
import type { GuestClaims } from './tokens.ts';

/** The call id must belong to the caller: `<caller's username>--<suffix>`. */
export function ownsCallId(guest: GuestClaims, callId: string): boolean {
  const parsed = parseCallId(callId);
  return parsed !== null && parsed.username === guest.username;
}

/** The report of a call id if the guest owns it; otherwise the error was sent and null returned. */
export async function ownedReport(services: Services, reply: FastifyReply, guest: GuestClaims, callId: string) {
  if (!ownsCallId(guest, callId)) {
    await fail(reply, 403, 'call_id: must be <your username>--<suffix>');
    return null;
  }
  const report = await services.repos.callReports.byCallId(callId);
  if (!report) {
    await fail(reply, 404, 'call_id: no report for this call, add it first');
    return null;
  }
  if (report.company_id !== guest.companyId || report.guest_username !== guest.username) {
    await fail(reply, 403, 'call_id: not your call');
    return null;
  }
  return report;
}
