import type { ReportStatus } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { QuotaPeriod } from '@lobby/contracts';

export interface ReportStatusInput {
  companyId: number;
  guestUsername: string;
  assignmentId: number | null;
  now: number;
  /** the company's quotas when the caller already has them (services/companySnapshots.ts) */
  quotas?: Array<{ id: number; period: QuotaPeriod; max_calls: number }>;
  /** the company's blocked guests when the caller already has them (services/companySnapshots.ts) */
  blocked?: ReadonlySet<string>;
}

/** One check of a new call; the first non-'ok' answer wins. Quota and blocked-guest checks plug in here. */
export type ReportStatusCheck = (db: Kysely<Database>, input: ReportStatusInput) => Promise<ReportStatus>;

export function createReportStatus(checks: ReportStatusCheck[] = []) {
  return async (db: Kysely<Database>, input: ReportStatusInput): Promise<ReportStatus> => {
    for (const check of checks) {
      const status = await check(db, input);
      if (status !== 'ok') return status;
    }
    return 'ok';
  };
}
export type ReportStatusFn = ReturnType<typeof createReportStatus>;
