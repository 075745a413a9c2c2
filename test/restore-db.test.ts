/**
 * A PostgreSQL backup restores with the procedure of docs/operations.md "Backups" (scripts/restore-db):
 * a cluster of its own (infra/lib.sh lobby_pg_start, on a free port), a company made by the operator's
 * own command (lobby-admin, which migrates the schema first), the documented pg_dump, then the restore in
 * place of a database that moved on since. The plain `pg_restore -d` on the live database is shown to fail,
 * which is why the procedure exists.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './freePort.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const runDir = mkdtempSync(path.join(tmpdir(), 'lobby-restore-'));
chmodSync(runDir, 0o755); // the cluster's folder is written by the postgres user
let env: NodeJS.ProcessEnv = {};

/** bash from the repository's root with the scripts' functions and this cluster's environment. */
function bash(script: string): { status: number; out: string } {
  const run = spawnSync('bash', ['-c', `set -euo pipefail; . scripts/lib/stack.sh >/dev/null; ${script}`], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  return { status: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
}

/** A query as the app's own user, one value per line. */
function query(sql: string): string[] {
  const { status, out } = bash(`psql -X -At "$(lobby_pg_url)" -c "${sql}"`);
  expect(status, out).toBe(0);
  return out.trim().split('\n').filter(Boolean);
}

/** The company table's rows as lobby-admin wrote them. */
const companies = () => query("SELECT name || ' ' || host FROM companies ORDER BY name");

beforeAll(async () => {
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LOBBY_RUN_DIR: runDir,
    LOBBY_LOG_DIR: path.join(runDir, 'logs'),
    PG_PORT: String(await freePort()),
    LOBBY_CONF: 'none',
  };
  const started = bash('lobby_pg_start');
  expect(started.status, started.out).toBe(0);
  // PGHOST and PGPORT: the cluster scripts/restore-db works on; DATABASE_URL: what lobby.env holds
  const cluster = bash('echo "$PG_DIR/socket"; lobby_pg_url').out.trim().split('\n');
  env = { ...env, PGHOST: cluster[0], PGPORT: env.PG_PORT, DATABASE_URL: cluster[1] };
}, 120_000);

afterAll(() => {
  bash('lobby_pg_destroy');
  rmSync(runDir, { recursive: true, force: true });
});

describe('restoring a PostgreSQL backup (docs/operations.md "Backups")', () => {
  it('when the dump of last night is restored with scripts/restore-db, then the database holds exactly its rows and the previous one is kept', () => {
    // arrange: a company, last night's dump (the documented pg_dump line, as postgres), then a second company
    const admin = (name: string) =>
      bash(
        `LOBBY_ADMIN_PASSWORD=correct-horse-battery node apps/server/src/cli/lobby-admin.ts create-company --name ${name} --host ${name}.example.com --admin-email ops@${name}.example.com`,
      );
    const first = admin('before');
    expect(first.status, first.out).toBe(0);
    const dump = path.join(runDir, 'lobby.dump');
    const dumped = bash(`runuser -u postgres -- pg_dump -Fc lobby_test >${dump} && chmod 644 ${dump}`);
    expect(dumped.status, dumped.out).toBe(0);
    expect(admin('after').status).toBe(0);
    expect(companies()).toEqual(
      expect.arrayContaining(['after after.example.com', 'before before.example.com']),
    );
    const rowsAtDump = companies().filter((row) => !row.startsWith('after '));

    // the line the page used to give: every object exists already, pg_restore exits 1
    const naive = bash(`runuser -u postgres -- pg_restore -d lobby_test ${dump}`);
    expect(naive.status).toBe(1);
    expect(naive.out).toMatch(/already exists/);

    // act: the documented procedure (the server is not running here, nothing holds a connection)
    const restored = bash(`./scripts/restore-db ${dump}`);

    // assert: the dump's rows, owned by the app's user (it can write), the previous database kept
    expect(restored.status, restored.out).toBe(0);
    expect(companies()).toEqual(rowsAtDump);
    expect(query("SELECT count(*) FROM companies WHERE name = 'after'")).toEqual(['0']);
    expect(query("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")).toEqual(['lobby']);
    expect(admin('again').status).toBe(0);
    expect(
      query("SELECT datname FROM pg_database WHERE datname LIKE 'lobby_test_before_restore_%'"),
    ).toHaveLength(1);
  }, 180_000);

  it('when the Lobby server still holds a connection, then scripts/restore-db changes nothing and says to stop it', () => {
    const held = bash(
      `psql -X "$(lobby_pg_url)" -c 'SELECT pg_sleep(30)' >/dev/null 2>&1 & holder=$!; sleep 1; ./scripts/restore-db ${path.join(runDir, 'lobby.dump')}; rc=$?; kill $holder; exit $rc`,
    );
    expect(held.status).toBe(1);
    expect(held.out).toMatch(/stop the Lobby server and the Janus gate first/);
  }, 60_000);

  it('when the file is not a dump, then nothing changes', () => {
    const bad = bash(
      `echo nonsense >${runDir}/bad.dump && chmod 644 ${runDir}/bad.dump && ./scripts/restore-db ${runDir}/bad.dump`,
    );
    expect(bad.status).toBe(1);
    expect(bad.out).toMatch(/not a pg_dump -Fc archive/);
    expect(query("SELECT count(*) FROM companies WHERE name = 'again'")).toEqual(['1']);
  }, 60_000);
});
