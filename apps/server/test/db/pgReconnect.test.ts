// PostgreSQL restarted under a running server (docs/operations.md "Scaling"): the pool's idle connection
// is ended by the database; the process lives on and the next query opens a new connection.
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/database.ts';

const url = process.env.LOBBY_TEST_PG_URL;

describe.skipIf(!url)('PostgreSQL connection ended under the pool', () => {
  it('when the database ends an idle connection, then the process lives on and the next query reconnects', async () => {
    const db = openDb(url ?? '');
    const errors: unknown[] = [];
    const onUncaught = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const first = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
      const pid = first.rows[0]?.pid;
      expect(pid).toBeGreaterThan(0);
      // as a restart does to every connection: the server ends this one while it idles in the pool
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      await new Promise((r) => setTimeout(r, 300));
      const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
      expect(again.rows[0]?.pid).not.toBe(pid);
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.close();
    }
  });
});
