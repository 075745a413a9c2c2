import type { AdminCompanyUpdate } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Writes to a company's own settings document (company administration). */
export function createAdminCompanyRepository(db: Kysely<Database>) {
  return {
    /**
     * Merge `patch` over the stored settings document (keys not in the patch are kept as stored, so a
     * setting never written keeps following the defaults). `name` goes to its column.
     */
    async update(companyId: number, patch: AdminCompanyUpdate): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('companies').select(['settings']).where('id', '=', companyId).executeTakeFirst();
        if (!row) return false;
        let stored: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(row.settings);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
        } catch {
          stored = {};
        }
        const { name, ...settings } = patch;
        const next = { ...stored, ...settings };
        await trx
          .updateTable('companies')
          .set({ settings: JSON.stringify(next), ...(name !== undefined ? { name } : {}) })
          .where('id', '=', companyId)
          .execute();
        return true;
      });
    },
  };
}
export type AdminCompanyRepository = ReturnType<typeof createAdminCompanyRepository>;
