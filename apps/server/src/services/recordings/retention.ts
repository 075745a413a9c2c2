/**
 * Recording retention (docs/operations.md "Recording retention"): a company's `recordingRetentionDays`
 * (0: keep until deleted by hand) makes the server delete each of its recordings that many days after
 * the conversation began (its first call's report; the newest file's time when the report is gone):
 * every call folder of the conversation, the mixed MP4, the raw tracks and the `.mjr` files, whether or
 * not the call was ever mixed (under a second of media, a failed mix, a call that never ended). Every
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
  recordings: Pick<RecordingsService, 'companies' | 'folders' | 'lastWritten' | 'purge'>,
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
      const seen = new Set<string>();
      // every call folder, not only the finished recordings: the raw .mjr files of a call never mixed
      // (under a second of media, a failed mix, a call that never ended) are the guest's media too
      for (const callId of await recordings.folders(companyId)) {
        try {
          const report = await services.repos.callReports.byCallId(callId);
          const ours = report && Number(report.company_id) === companyId ? report : null;
          // a conversation is one chain of calls (hold and resume): it is deleted whole, once
          const origin = ours ? (ours.origin_call_id ?? ours.call_id) : callId;
          if (seen.has(origin)) continue;
          seen.add(origin);
          let began: number | null;
          if (ours) {
            // its first call's report: a call in progress is younger than the cutoff, and stays
            const [first] = await services.repos.callReports.chain(companyId, origin);
            began = Number((first ?? ours).created_at);
          } else {
            // no report (gone, or never made): the folder's newest file, so that one still written stays
            began = await recordings.lastWritten(companyId, callId);
          }
          if (began === null || began >= cutoff) continue;
          if (await recordings.purge(companyId, origin, { by: null, reason: 'retention' })) deleted.push(origin);
        } catch (error) {
          log(`retention: deleting the recording of ${callId} failed`, error);
        }
      }
    }
    if (deleted.length) log(`retention: deleted ${deleted.length} recording(s): ${deleted.join(', ')}`);
    return deleted;
  }

  return createPeriodicJob('retention', sweep, log);
}
