import type { Assignment } from '@lobby/contracts';
import type { CompanyRow } from '../repositories/companies.ts';
import type { QuotaPeriod } from '@lobby/contracts';

/**
 * What opening a call reads of its company: the row (settings, activation), the assignments, the quotas,
 * the usernames of its blocked guests.
 */
export interface CompanySnapshot {
  company: CompanyRow;
  assignments: Assignment[];
  quotas: Array<{ id: number; period: QuotaPeriod; max_calls: number }>;
  blocked: ReadonlySet<string>;
}

export interface CompanySnapshotSource {
  byId(id: number): Promise<CompanyRow | null>;
  assignments(companyId: number): Promise<Assignment[]>;
  quotaRows(companyId: number): Promise<CompanySnapshot['quotas']>;
  blockedUsernames(companyId: number): Promise<string[]>;
}

export interface CompanySnapshots {
  /** The company's snapshot, at most `ttlMs` old; null for no such company (never cached). */
  get(companyId: number): Promise<CompanySnapshot | null>;
  /** Drops the company's snapshot (all companies without an id): the next read loads it again. */
  invalidate(companyId?: number): void;
}

/**
 * Every call opened (POST /api/call-report/add) read its company's row, assignments, quotas and whether its
 * guest is blocked from the database: four queries of five, most of the route's database time
 * (docs/performance.md, "Service API"). They change only through the admin API, which drops the company's snapshot on every successful
 * write in this process (plugins/app/companySnapshots.ts). Other writers — another server instance on the
 * same PostgreSQL, `lobby-admin` — are seen within `ttlMs` (1 s by default, LOBBY_COMPANY_CACHE_MS).
 * A pending load is shared, so a burst of calls for one company makes one set of queries.
 */
export function createCompanySnapshots(
  source: CompanySnapshotSource,
  options: { ttlMs: number; clock?: () => number; maxCompanies?: number },
): CompanySnapshots {
  const clock = options.clock ?? (() => performance.now());
  const maxCompanies = options.maxCompanies ?? 10_000;
  const entries = new Map<number, { loadedAt: number; value: Promise<CompanySnapshot | null> }>();

  const load = async (companyId: number): Promise<CompanySnapshot | null> => {
    const [company, assignments, quotas, blocked] = await Promise.all([
      source.byId(companyId),
      source.assignments(companyId),
      source.quotaRows(companyId),
      source.blockedUsernames(companyId),
    ]);
    return company ? { company, assignments, quotas, blocked: new Set(blocked) } : null;
  };

  return {
    get(companyId) {
      const entry = entries.get(companyId);
      if (entry && clock() - entry.loadedAt < options.ttlMs) return entry.value;
      if (options.ttlMs <= 0) return load(companyId);
      if (entries.size >= maxCompanies) entries.clear();
      const fresh = { loadedAt: clock(), value: load(companyId) };
      entries.set(companyId, fresh);
      // a failed load or a missing company is not kept: the next call asks the database again
      const forget = () => {
        if (entries.get(companyId) === fresh) entries.delete(companyId);
      };
      fresh.value.then((snapshot) => snapshot ?? forget(), forget);
      return fresh.value;
    },
    invalidate(companyId) {
      if (companyId === undefined) entries.clear();
      else entries.delete(companyId);
    },
  };
}
