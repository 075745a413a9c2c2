/**
 * Recording retention (docs/operations.md "Recording retention"): a company's `recordingRetentionDays`
 * (0: keep until deleted by hand) makes the server delete each of its recordings that many days after
 * the conversation began (its first call's report; the file's time when the report is gone). Every
 * deletion is logged (recording_deletions, reason `retention`, by nobody) like one by hand.
 *
 * The clock is injected, so that tests move time instead of waiting days.
 */
import type { Services } from '../index.ts';
import { createPeriodicJob, type PeriodicJob } from '../periodicJob.ts';
import type { RecordingsService } from './index.ts';

const DAY_MS = 86_400_000;

/** runOnce() deletes every recording past its company's retention and resolves with the call ids deleted. */
export type RetentionJob = PeriodicJob<string[]>;

export function createRetentionJob(
  services: Pick<Services, 'repos'>,
  recordings: Pick<RecordingsService, 'companies' | 'list' | 'remove'>,
  options: { now: () => number; log?: (message: string, error?: unknown) => void },
): RetentionJob {
  const log = options.log ?? (() => undefined);

  async function sweep(): Promise<string[]> {
    const deleted: string[] = [];
    const now = options.now();
    for (const companyId of await recordings.companies()) {
      const company = await services.repos.companies.byId(companyId);
      const days = company?.settings.recordingRetentionDays ?? 0;
      if (!company || !(days > 0)) continue;
      const cutoff = now - days * DAY_MS;
      for (const entry of await recordings.list(companyId)) {
        const report = await services.repos.callReports.byCallId(entry.callId);
        const began = report && Number(report.company_id) === companyId ? Number(report.created_at) : entry.createdAt;
        if (began >= cutoff) continue;
        try {
          if (await recordings.remove(companyId, entry.callId, { by: null, reason: 'retention' })) deleted.push(entry.callId);
        } catch (error) {
          log(`retention: deleting the recording of ${entry.callId} failed`, error);
        }
      }
    }
    if (deleted.length) log(`retention: deleted ${deleted.length} recording(s): ${deleted.join(', ')}`);
    return deleted;
  }

  return createPeriodicJob('retention', sweep, log);
}
