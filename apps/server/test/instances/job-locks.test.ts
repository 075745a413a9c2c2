/**
 * Periodic jobs with two server instances on one PostgreSQL (docs/operations.md "Shared state: jobs,
 * limits and files"): each job runs on one instance at a time, under its advisory lock held on the
 * instance's own connection, and moves to the other instance when the holder's connection dies.
 * (On SQLite one server runs alone: db/instanceLock.ts, test/db/instanceLock.test.ts.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LOCKS_APPLICATION, jobLockKey } from '../../src/services/jobLocks.ts';
import { createPeriodicJob } from '../../src/services/periodicJob.ts';
import { createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { secondInstance, type SecondInstance } from '../helpers/secondInstance.ts';

describe.each(dialects().filter((d) => d === 'postgres'))('periodic jobs across two instances (%s)', (dialect) => {
  let t: TestContext;
  let b: SecondInstance;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    b = await secondInstance(t);
  });
  afterAll(async () => {
    await b.close();
    await t.close();
  });

  /** The connections holding the advisory lock of `jobName` in this test's schema. */
  async function holdersOf(admin: pg.Client, jobName: string): Promise<number[]> {
    const { rows } = await admin.query<{ pid: number }>(
      `select l.pid from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and a.application_name = $2
          and l.classid::bigint = ($1::bigint >> 32) & 4294967295 and l.objid::bigint = $1::bigint & 4294967295`,
      [jobLockKey(t.db.pgSchema, jobName), JOB_LOCKS_APPLICATION],
    );
    return rows.map((r) => r.pid);
  }

  it('when both instances tick the same job, then it runs on one only, and on the other once the holder\u2019s connection dies', async () => {
    const runs: string[] = [];
    const name = 'test job: one instance at a time';
    const jobA = createPeriodicJob(name, () => Promise.resolve(runs.push('a')));
    const jobB = createPeriodicJob(name, () => Promise.resolve(runs.push('b')));
    const lockA = t.app.services.jobLocks.lock(name);
    const lockB = b.app.services.jobLocks.lock(name);

    for (let i = 0; i < 4; i++) {
      await jobA.tick(lockA);
      await jobB.tick(lockB);
    }
    expect(runs).toEqual(['a', 'a', 'a', 'a']);
    // also while both tick at the same moment
    await Promise.all([jobA.tick(lockA), jobB.tick(lockB), jobA.tick(lockA), jobB.tick(lockB)]);
    expect(runs.filter((r) => r === 'b')).toEqual([]);

    // A's lock connection dies (a crashed process, a cut network): PostgreSQL frees its locks
    const admin = new pg.Client({ connectionString: process.env.LOBBY_TEST_PG_URL });
    await admin.connect();
    const holderA = await holdersOf(admin, name);
    expect(holderA).toHaveLength(1);
    await admin.query('select pg_terminate_backend($1)', [holderA[0]]);

    runs.length = 0;
    await expect.poll(async () => jobB.tick(lockB), { timeout: 10_000 }).toBe(true);
    for (let i = 0; i < 3; i++) {
      await jobA.tick(lockA);
      await jobB.tick(lockB);
    }
    expect(runs.filter((r) => r === 'a')).toEqual([]);
    expect(runs.filter((r) => r === 'b').length).toBeGreaterThanOrEqual(4);
    // B's own connection holds it now, not a new one of A's
    const holderB = await holdersOf(admin, name);
    expect(holderB).toHaveLength(1);
    expect(holderB[0]).not.toBe(holderA[0]);
    await admin.end();
  });
});
