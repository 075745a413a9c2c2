/**
 * Which server instance runs a periodic job (docs/operations.md "Shared state: jobs, limits and files").
 * Several instances on one PostgreSQL each start every job; one of them runs it at a time:
 * - PostgreSQL: the job's session-level advisory lock (pg_try_advisory_lock), taken on a connection of the
 *   instance's own, outside the pool, kept open while the instance lives. The instance that holds it runs
 *   the job; the others try again at each tick. When the holder dies its connection closes and PostgreSQL
 *   frees its locks: the next tick of another instance takes the job over. No row to expire, no clock to trust.
 * - SQLite: one instance only (db/instanceLock.ts refuses a second one), so it always runs its jobs.
 * One connection serves every job of the instance: jobs then move together when it dies, and an instance
 * costs one connection more than its pool, not one per job.
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/database.ts';

export interface JobLock {
  /** true while this instance may run the job (takes the lock when it is free) */
  held(): Promise<boolean>;
}

export interface JobLocks {
  lock(jobName: string): JobLock;
  /** releases every lock (closing the connection) */
  close(): Promise<void>;
}

/** The advisory lock key of a job: a signed 64-bit hash of the schema and the job's name (tests run one schema per file). */
export function jobLockKey(schema: string | undefined, jobName: string): string {
  return crypto
    .createHash('sha256')
    .update(`${schema ?? ''}/${jobName}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

export const JOB_LOCKS_APPLICATION = 'lobby job locks';

export function createJobLocks(db: Db, log: (message: string, error?: unknown) => void = () => undefined): JobLocks {
  const raw = db.raw;
  if (raw.dialect !== 'postgres') return { lock: () => ({ held: () => Promise.resolve(true) }), close: () => Promise.resolve() };
  const postgres = raw;

  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client | null> | null = null;
  /** the keys this connection holds */
  const held = new Set<string>();
  let closed = false;
  /** the connection answers one question at a time: the jobs' ticks take turns */
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work);
    turn = next.catch(() => undefined);
    return next;
  };

  const forget = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    if (held.size) log(`job locks: connection lost, ${held.size} job(s) free for another instance`);
    held.clear();
  };

  function connection(): Promise<pg.Client | null> {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = postgres.dedicatedClient(JOB_LOCKS_APPLICATION);
      c.on('error', (error: Error) => {
        log('job locks: connection failed', error);
        forget(c);
      });
      c.on('end', () => forget(c));
      try {
        await c.connect();
      } catch (error) {
        log('job locks: cannot connect', error);
        return null;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        return null;
      }
      client = c;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    lock(jobName) {
      const key = jobLockKey(db.pgSchema, jobName);
      return {
        held: () =>
          inTurn(async () => {
            if (closed) return false;
            const c = await connection();
            if (!c) return false;
            try {
              if (held.has(key)) {
                // still ours while the session lives: a cheap question notices a connection that died quietly
                await c.query('select 1');
                return client === c && held.has(key);
              }
              const { rows } = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [key]);
              if (rows[0]?.ok && client === c) held.add(key);
              return held.has(key);
            } catch (error) {
              log(`job locks: ${jobName}`, error);
              forget(c);
              await c.end().catch(() => undefined);
              return false;
            }
          }),
      };
    },
    async close() {
      closed = true;
      const c = client ?? (connecting ? await connecting : null);
      if (c) {
        forget(c);
        await c.end().catch(() => undefined);
      }
    },
  };
}
