/**
 * @fastify/rate-limit's store on the database (docs/operations.md "Shared state: jobs, limits and files"):
 * every server instance counts into one table, so a limit of 10 a minute is 10 whichever instances the
 * requests reach. A fixed window: the row's key is the route, the client's key and the window's start, and a
 * hit is one statement (insert 1, or add 1 to the window's row) answering the count, so instances counting at
 * once lose none. Rows of past windows are deleted by sweep(), a job of one instance at a time. One code path
 * on both dialects: on SQLite the row costs one small write per limited request (logins, registrations,
 * uploads, which write anyway).
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotStatement, type HotStatement } from '../db/hotStatements.ts';
import type { Database } from '../db/schema.ts';

type Result = { current: number; ttl: number };

// every registration counts a hit: prepared once per database (db/hotStatements.ts)
const hits = new WeakMap<Db, HotStatement<{ count: number | string }>>();
const HIT_SQL =
  'insert into rate_limits (key, window_start, count, expires_at) values (?, ?, 1, ?) on conflict (key) do update set count = rate_limits.count + 1 returning count';

/** One hit of `key` in the window of `timeWindow` ms that holds `at`: the window's count with it, and the ms left. */
export async function countHit(db: Db, key: string, timeWindow: number, at: number): Promise<Result> {
  const windowMs = Math.max(1, Math.trunc(timeWindow));
  const windowStart = Math.floor(at / windowMs) * windowMs;
  let hit = hits.get(db);
  if (!hit) {
    hit = hotStatement<{ count: number | string }>(db, 'rate_limits_hit', HIT_SQL, { batch: true });
    hits.set(db, hit);
  }
  const row = await hit.first([`${key}@${windowStart}`, windowStart, windowStart + windowMs]);
  if (!row) throw new Error('rate_limits: the hit answered no count');
  return { current: Number(row.count), ttl: windowStart + windowMs - at };
}

/** Deletes the rows of windows that ended before `at`; resolves with how many. */
export async function sweepRateLimits(db: Kysely<Database>, at: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('expires_at', '<=', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The store's class, as @fastify/rate-limit wants it (`store:`). `db`: asked at each hit (the rate-limit
 * plugin is registered before the app's database plugin).
 */
export function databaseRateLimitStore(db: () => Db, now: () => number): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly prefix: string;
    constructor(_options: unknown, prefix = '') {
      this.prefix = prefix;
    }
    incr(key: string, callback: (error: Error | null, result?: Result) => void, timeWindow: number): void {
      countHit(db(), this.prefix + key, timeWindow, now()).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // each route counts apart, as the plugin's own stores do (the merged options carry the route as routeInfo)
      const route = (routeOptions as unknown as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      const method = Array.isArray(route.method) ? route.method.join(',') : (route.method ?? '');
      return new DatabaseRateLimitStore(routeOptions, `${this.prefix}${method}${route.url ?? ''}-`);
    }
  }
  return DatabaseRateLimitStore;
}
