import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createGuestRulesRepository, periodStart } from '../repositories/guestRules.ts';
import type { ReportStatusCheck } from './reportStatus.ts';

/** A guest the company blocked gets `blocked` for every new call. */
export const blockedCheck: ReportStatusCheck = async (db: Kysely<Database>, input) => {
  const blocked = input.blocked ? input.blocked.has(input.guestUsername) : await createGuestRulesRepository(db).isBlocked(input.companyId, input.guestUsername);
  return blocked ? 'blocked' : 'ok';
};

/** `outOfQuota` once the company's accepted calls in any quota period reached its limit. */
export const quotaCheck: ReportStatusCheck = async (db: Kysely<Database>, input) => {
  const repo = createGuestRulesRepository(db);
  for (const q of input.quotas ?? (await repo.quotaRows(input.companyId))) {
    if ((await repo.callsSince(input.companyId, periodStart(q.period, input.now))) >= q.max_calls) return 'outOfQuota';
  }
  return 'ok';
};

/** The checks of POST /api/call-report/add, in order: blocked wins over out of quota. */
export const defaultReportChecks: ReportStatusCheck[] = [blockedCheck, quotaCheck];
