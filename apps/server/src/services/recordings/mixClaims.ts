/**
 * Which server instance mixes a conversation's recording (docs/operations.md "Shared state: jobs, limits
 * and files"). The recordings sweep runs on one instance at a time (services/jobLocks.ts), but the lock can
 * move while a long mix runs (the holder's connection dropped, its process still working): a row per
 * conversation (recording_mixes) is claimed with one conditional update, so two instances never mix the
 * same chain nor both write its {callId}.mp4. A claim lasts `LEASE_MS` unless released: a crashed
 * instance's chain waits that long at most. The newest raw file's time of a failed mix is kept there too,
 * so that no instance tries again before new media arrive.
 *
 * A row is only worth keeping while it is claimed or remembers a failed mix: the others (a chain mixed,
 * or never tried) are pruned by each sweep (`prune`), since a claim makes its row again; a deleted
 * chain's row goes with it (`forget`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const LEASE_MS = 60 * 60_000;

export interface MixClaims {
  /** true when `owner` now holds the conversation's claim (it was free, or its holder's lease ran out) */
  claim(companyId: number, originCallId: string, owner: string, at: number): Promise<boolean>;
  release(companyId: number, originCallId: string, owner: string): Promise<void>;
  /** the newest raw file's time when the mix last failed, or null */
  failedNewest(companyId: number, originCallId: string): Promise<number | null>;
  setFailedNewest(companyId: number, originCallId: string, newest: number | null): Promise<void>;
  /** `owner` deleted the conversation it holds: its row (claim and failure alike) goes */
  forget(companyId: number, originCallId: string, owner: string): Promise<void>;
  /** deletes the rows nobody holds (no claim, or its lease ran out) that remember no failure; how many */
  prune(at: number): Promise<number>;
}

export function createMixClaims(db: Kysely<Database>): MixClaims {
  const row = (companyId: number, originCallId: string) =>
    db.updateTable('recording_mixes').where('company_id', '=', companyId).where('origin_call_id', '=', originCallId);
  return {
    async claim(companyId, originCallId, owner, at) {
      await db
        .insertInto('recording_mixes')
        .values({
          company_id: companyId,
          origin_call_id: originCallId,
          claimed_by: null,
          claimed_until: 0,
          failed_newest: null,
        })
        .onConflict((oc) => oc.columns(['company_id', 'origin_call_id']).doNothing())
        .execute();
      const result = await row(companyId, originCallId)
        .set({ claimed_by: owner, claimed_until: at + LEASE_MS })
        // not even its own holder takes it twice: a deletion holds it against this instance's next sweep too
        .where((eb) => eb.or([eb('claimed_until', '<=', at), eb('claimed_by', 'is', null)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release(companyId, originCallId, owner) {
      await row(companyId, originCallId).set({ claimed_by: null, claimed_until: 0 }).where('claimed_by', '=', owner).execute();
    },
    async failedNewest(companyId, originCallId) {
      const r = await db
        .selectFrom('recording_mixes')
        .select('failed_newest')
        .where('company_id', '=', companyId)
        .where('origin_call_id', '=', originCallId)
        .executeTakeFirst();
      return r?.failed_newest === null || r?.failed_newest === undefined ? null : Number(r.failed_newest);
    },
    async setFailedNewest(companyId, originCallId, newest) {
      await row(companyId, originCallId).set({ failed_newest: newest }).execute();
    },
    async forget(companyId, originCallId, owner) {
      await db
        .deleteFrom('recording_mixes')
        .where('company_id', '=', companyId)
        .where('origin_call_id', '=', originCallId)
        .where('claimed_by', '=', owner)
        .execute();
    },
    async prune(at) {
      const result = await db
        .deleteFrom('recording_mixes')
        .where('failed_newest', 'is', null)
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_until', '<=', at)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
