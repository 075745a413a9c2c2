import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import { openDb } from '../../src/db/database.ts';
import type { Db, Dialect } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { seedDemo } from '../../src/db/seed.ts';
import { createEventBus } from '../../src/services/events.ts';
import type { EventBus } from '../../src/services/events.ts';
import type { App } from '../../src/typebox.ts';
import { createFakeEjabberd, createFakeJanus } from './fakes.ts';
import type { FakeEjabberd, FakeJanus } from './fakes.ts';

export const DEMO = {
  companyId: 18,
  agentEmail: 'agent@demo.lobby',
  agentPassword: 'agent-password-for-tests',
  adminEmail: 'admin@demo.lobby',
  adminPassword: 'admin-password-for-tests',
};

/**
 * The dialects the data layer and route tests run on: SQLite, and PostgreSQL when LOBBY_TEST_PG_URL is set.
 * LOBBY_TEST_PG_ONLY=1 (with the URL) leaves SQLite out: ./scripts/test's unit-pg stage, whose SQLite half
 * ran in the unit stage already (README.md "./scripts/test").
 */
export function dialects(env: NodeJS.ProcessEnv = process.env): Dialect[] {
  if (!env.LOBBY_TEST_PG_URL) return ['sqlite'];
  return env.LOBBY_TEST_PG_ONLY === '1' ? ['postgres'] : ['sqlite', 'postgres'];
}

export interface TestDb {
  db: Db;
  dialect: Dialect;
  /** another connection to the same database (what a second server instance opens) */
  reopen(): Db;
  /** Runs the migrations again, as freshDb did (on PostgreSQL under the tests' schema lock, below). */
  migrate(): ReturnType<typeof migrateToLatest>;
  drop(): Promise<void>;
}

/** A fresh, migrated database: a temp SQLite file, or a fresh schema in LOBBY_TEST_PG_URL. */
export async function freshDb(dialect: Dialect): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-test-'));
    const url = `sqlite:${path.join(dir, 'lobby.sqlite')}`;
    const db = openDb(url);
    await migrateToLatest(db);
    return {
      db,
      dialect,
      reopen: () => openDb(url),
      migrate: () => migrateToLatest(db),
      async drop() {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.LOBBY_TEST_PG_URL;
  if (!url) throw new Error('LOBBY_TEST_PG_URL is not set');
  const schema = `lobby_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = openDb(url, { pgSchema: schema });
  // Kysely's migrator asks for every table of every schema (PostgresIntrospector.getTables); a test
  // file dropping its schema at that moment makes the query fail ("relation … does not exist"). One
  // advisory lock across the test workers keeps migrations and drops apart.
  await withSchemaLock(admin, () => migrateToLatest(db));
  await admin.end();
  return {
    db,
    dialect,
    reopen: () => openDb(url, { pgSchema: schema }),
    async migrate() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return await withSchemaLock(c, () => migrateToLatest(db));
      } finally {
        await c.end();
      }
    },
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await withSchemaLock(c, () => c.query(`drop schema ${schema} cascade`));
      await c.end();
    },
  };
}

/** Any number: the key of the advisory lock that migrations and schema drops of the tests share. */
const SCHEMA_LOCK_KEY = 7_340_017;

async function withSchemaLock<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
  try {
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]);
  }
}

export interface TestContext {
  app: App;
  db: Db;
  dialect: Dialect;
  config: Config;
  ejabberd: FakeEjabberd;
  janus: FakeJanus;
  events: EventBus;
  clock: { now: number };
  /** another connection to the same database (helpers/instances.ts) */
  reopen(): Db;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const missing = path.join(os.tmpdir(), 'lobby-test-no-dist');
  return {
    ...loadConfig({ NODE_ENV: 'test', LOBBY_GUEST_DIST: missing, LOBBY_GUEST_SSR: path.join(missing, 'entry-server.js'), LOBBY_CONSOLE_DIST: missing }),
    registerRateLimit: 1000,
    registerBrowserRateLimit: 1000,
    loginRateLimit: 1000,
    uploadRateLimit: 1000,
    // Tests write companies, assignments and quotas straight into the database (fixtures.ts) behind the
    // app's back, as lobby-admin does: without a snapshot cache they see each write at once. The cache
    // itself is tested in services/companySnapshots.test.ts and routes/api/call-report/company-cache.test.ts.
    companyCacheMs: 0,
    ...overrides,
  };
}

/** An app on a fresh database with the demo company, fake ejabberd/Janus, a controllable clock. */
export async function createTestContext(
  dialect: Dialect,
  options: { config?: Partial<Config>; deps?: Partial<AppDeps>; seed?: boolean } = {},
): Promise<TestContext> {
  const t = await freshDb(dialect);
  if (options.seed !== false) {
    await seedDemo(t.db, { companyId: DEMO.companyId, agentPassword: DEMO.agentPassword, adminPassword: DEMO.adminPassword });
  }
  // Uploads go to the data dir: a temp one per context, never the repository's data/.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-data-'));
  const config = testConfig({ dataDir, ...options.config });
  const ejabberd = createFakeEjabberd();
  const janus = createFakeJanus();
  const events = createEventBus();
  const clock = { now: Date.now() };
  const app = await buildApp(config, {
    db: t.db,
    ejabberd,
    janus,
    events,
    now: () => clock.now,
    logger: false,
    ...options.deps,
  });
  await app.ready();
  return {
    app,
    db: t.db,
    dialect,
    config,
    ejabberd,
    janus,
    events,
    clock,
    reopen: () => t.reopen(),
    async close() {
      await app.close();
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
