/**
 * How long a guest's call-bug reports are kept (docs/security.md "Call-bug reports"): they hold the guest
 * app's console log and state, the guest's data like a recording, so the company's
 * `recordingRetentionDays` deletes them too; and being a support aid, never longer than
 * CALL_BUG_KEEP_DAYS (a company that keeps recordings until deleted by hand keeps reports that long).
 * Runs on services/periodicJob.ts; the clock is injected so that tests move time instead of waiting.
 */
import type { Services } from './index.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';

export const CALL_BUG_KEEP_DAYS = 30;
const DAY_MS = 86_400_000;

/** Days the company keeps its call-bug reports. */
export function callBugKeepDays(recordingRetentionDays: number): number {
  return recordingRetentionDays > 0 ? Math.min(recordingRetentionDays, CALL_BUG_KEEP_DAYS) : CALL_BUG_KEEP_DAYS;
}

/** runOnce() deletes every report past its company's keeping and resolves with how many it deleted. */
export function createCallBugRetentionJob(
  services: Pick<Services, 'repos'>,
  options: { now: () => number; log?: (message: string, error?: unknown) => void },
): PeriodicJob<number> {
  async function sweep(): Promise<number> {
    let deleted = 0;
    const now = options.now();
    for (const companyId of await services.repos.callBugs.companies()) {
      const company = await services.repos.companies.byId(companyId);
      const days = callBugKeepDays(company?.settings.recordingRetentionDays ?? 0);
      deleted += await services.repos.callBugs.deleteBefore(companyId, now - days * DAY_MS);
    }
    if (deleted) options.log?.(`call-bug retention: deleted ${deleted} report(s)`);
    return deleted;
  }
  return createPeriodicJob('call-bug retention', sweep, options.log);
}
