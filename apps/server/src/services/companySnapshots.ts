import type { Assignment } from '@lobby/contracts';
import type { CompanyRow } from '../repositories/companies.ts';
import type { QuotaPeriod } from '@lobby/contracts';

/**
 * What opening a call reads of its company: the row (settings, activation), the assignments, the quotas,
 * the usernames of its blocked guests; and what a guest's registration reads: the agents of each
 * assignment (the admins of the guest's rooms).
 */
export interface CompanySnapshot {
  company: CompanyRow;
  assignments: Assignment[];
  quotas: Array<{ id: number; period: QuotaPeriod; max_calls: number }>;
  blocked: ReadonlySet<string>;
  /** each assignment's agents (their XMPP usernames, by user id); an assignment without agents is absent */
  agents: ReadonlyMap<number, readonly string[]>;
}

export interface CompanySnapshotSource {
  byId(id: number): Promise<CompanyRow | null>;
  assignments(companyId: number): Promise<Assignment[]>;
  quotaRows(companyId: number): Promise<CompanySnapshot['quotas']>;
  blockedUsernames(companyId: number): Promise<string[]>;
  agentsOfAssignments(companyId: number): Promise<Array<{ assignmentId: number; xmppUsername: string }>>;
  /** the id of the company a host name names, or null */
  idByHost(host: string): Promise<number | null>;
}

export interface CompanySnapshots {
  /** The company's snapshot, at most `ttlMs` old; null for no such company (never cached). */
  get(companyId: number): Promise<CompanySnapshot | null>;
  /**
   * The id of the company whose host is `host` (null: none), at most `ttlMs` old; every invalidation drops
   * them all (a company's host may have become another's).
   */
  idByHost(host: string): Promise<number | null>;
  /** Drops the company's snapshot (all companies without an id) and the hosts: the next read loads them again. */
  invalidate(companyId?: number): void;
}

/**
 * Every call opened (POST /api/call-report/add) read its company's row, assignments, quotas and whether its
 * guest is blocked from the database: four queries of five, most of the route's database time
 * (docs/performance.md, "Service API"). They change only through the admin API, which drops the company's snapshot on every successful
 * write in this process (plugins/app/companySnapshots.ts). Other writers — another server instance on the
 * same PostgreSQL, `lobby-admin` — are seen within `ttlMs` (1 s by default, LOBBY_COMPANY_CACHE_MS).
 * A pending load is shared, so a burst of calls for one company makes one set of queries. A guest's
 * registration reads its company by host and its assignments' agents here too (twice per registration
 * each before: docs/performance.md "Service API").
 */
export function createCompanySnapshots(
  source: CompanySnapshotSource,
  options: { ttlMs: number; clock?: () => number; maxCompanies?: number },
): CompanySnapshots {
  const clock = options.clock ?? (() => performance.now());
  const maxCompanies = options.maxCompanies ?? 10_000;
  const entries = new Map<number, { loadedAt: number; value: Promise<CompanySnapshot | null> }>();
  // the Host header is the client's: a host that names no company is kept too (null), as many as companies
  const hosts = new Map<string, { loadedAt: number; value: Promise<number | null> }>();

  const load = async (companyId: number): Promise<CompanySnapshot | null> => {
    const [company, assignments, quotas, blocked, agentRows] = await Promise.all([
      source.byId(companyId),
      source.assignments(companyId),
      source.quotaRows(companyId),
      source.blockedUsernames(companyId),
      source.agentsOfAssignments(companyId),
    ]);
    if (!company) return null;
    const agents = new Map<number, string[]>();
    for (const { assignmentId, xmppUsername } of agentRows) {
      const list = agents.get(assignmentId);
      if (list) list.push(xmppUsername);
      else agents.set(assignmentId, [xmppUsername]);
    }
    return { company, assignments, quotas, blocked: new Set(blocked), agents };
  };

  /** The cached value of `key`, loaded again once `ttlMs` old; a failed load, or a value `keep` refuses, is not kept. */
  const cached = <K, V>(map: Map<K, { loadedAt: number; value: Promise<V> }>, key: K, loader: (key: K) => Promise<V>, keep: (value: V) => boolean) => {
    const entry = map.get(key);
    if (entry && clock() - entry.loadedAt < options.ttlMs) return entry.value;
    if (options.ttlMs <= 0) return loader(key);
    if (map.size >= maxCompanies) map.clear();
    const fresh = { loadedAt: clock(), value: loader(key) };
    map.set(key, fresh);
    const forget = () => {
      if (map.get(key) === fresh) map.delete(key);
    };
    fresh.value.then((value) => {
      if (!keep(value)) forget();
    }, forget);
    return fresh.value;
  };

  return {
    // a missing company is not kept: the next call asks the database again
    get: (companyId) => cached(entries, companyId, load, (snapshot) => snapshot !== null),
    idByHost: (host) => cached(hosts, host, (h) => source.idByHost(h), () => true),
    invalidate(companyId) {
      hosts.clear();
      if (companyId === undefined) entries.clear();
      else entries.delete(companyId);
    },
  };
}
