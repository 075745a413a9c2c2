import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Tables of migration 0007_recording_privacy (kept beside their repository). */
export interface RecordingDeletionsTable {
  id: Generated<number>;
  company_id: number;
  call_id: string;
  deleted_at: number;
  deleted_by: number | null;
  deleted_by_name: string | null;
  reason: 'manual' | 'retention';
}

interface PrivacyDatabase extends Database {
  recording_deletions: RecordingDeletionsTable;
  call_reports: Database['call_reports'] & { recording_consent_at: number | null };
}

export interface RecordingDeletion {
  callId: string;
  deletedAt: number;
  /** null: the retention job */
  deletedBy: { id: number | null; name: string | null } | null;
  reason: 'manual' | 'retention';
}

/**
 * Recording consent (the guest's acknowledgement of the recording notice, stored with the call) and the
 * log of deleted recordings (docs/security.md "Recording consent").
 */
export function createRecordingPrivacyRepository(base: Kysely<Database>) {
  const db = base as unknown as Kysely<PrivacyDatabase>;
  return {
    /** Stores when the guest acknowledged the notice (first time only). */
    async setConsent(callId: string, at: number): Promise<void> {
      await db.updateTable('call_reports').set({ recording_consent_at: at }).where('call_id', '=', callId).where('recording_consent_at', 'is', null).execute();
    },
    /**
     * When the guest of a conversation acknowledged the notice (its first call's report: a call resumed
     * after hold continues the conversation the guest agreed to), or null.
     */
    async consentOf(companyId: number, callId: string): Promise<number | null> {
      const report = await db
        .selectFrom('call_reports')
        .select(['origin_call_id', 'recording_consent_at'])
        .where('company_id', '=', companyId)
        .where('call_id', '=', callId)
        .executeTakeFirst();
      if (!report) return null;
      if (report.recording_consent_at !== null) return Number(report.recording_consent_at);
      if (!report.origin_call_id || report.origin_call_id === callId) return null;
      const origin = await db
        .selectFrom('call_reports')
        .select('recording_consent_at')
        .where('company_id', '=', companyId)
        .where('call_id', '=', report.origin_call_id)
        .executeTakeFirst();
      return origin?.recording_consent_at != null ? Number(origin.recording_consent_at) : null;
    },
    async logDeletion(entry: { companyId: number; callId: string; at: number; by: { id: number; name: string } | null; reason: 'manual' | 'retention' }) {
      await db
        .insertInto('recording_deletions')
        .values({
          company_id: entry.companyId,
          call_id: entry.callId,
          deleted_at: entry.at,
          deleted_by: entry.by?.id ?? null,
          deleted_by_name: entry.by?.name ?? null,
          reason: entry.reason,
        })
        .execute();
    },
    /** The company's deletions, newest first. */
    async deletions(companyId: number, limit = 200): Promise<RecordingDeletion[]> {
      const rows = await db
        .selectFrom('recording_deletions')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('deleted_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        callId: r.call_id,
        deletedAt: Number(r.deleted_at),
        deletedBy: r.deleted_by === null && r.deleted_by_name === null ? null : { id: r.deleted_by, name: r.deleted_by_name },
        reason: r.reason,
      }));
    },
  };
}
export type RecordingPrivacyRepository = ReturnType<typeof createRecordingPrivacyRepository>;
