import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { openDb } from './db/database.ts';
import { InstanceLockedError, lockSqliteInstance, type InstanceLock } from './db/instanceLock.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemo } from './db/seed.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit('lobby server');

  // SQLite: one server per database file (db/instanceLock.ts); held until the process ends
  let instanceLock: InstanceLock | null = null;
  try {
    instanceLock = lockSqliteInstance(config.databaseUrl);
  } catch (error) {
    if (!(error instanceof InstanceLockedError)) throw error;
    console.error(`lobby server: ${error.message}`);
    process.exit(1);
  }

  // the WAL is checkpointed by a worker thread, not inside a request's commit (db/walCheckpointer.ts)
  const db = openDb(config.databaseUrl, { backgroundCheckpoint: true, onCheckpointError: (message) => console.error(`sqlite checkpoint: ${message}`) });
  const migrations = await migrateToLatest(db);
  if (config.seedDemo) {
    await seedDemo(db, { companyId: config.defaultCompanyId, agentPassword: config.demoAgentPassword, adminPassword: config.demoAdminPassword });
  }

  const app = await buildApp(config, { db });
  app.addHook('onClose', async () => {
    await db.close();
    // (also keeps the lock's connection referenced for the process's life: collected, it would let go)
    instanceLock?.release();
  });
  for (const m of migrations.results ?? []) app.log.info({ migration: m.migrationName, status: m.status }, 'migration');
  if (config.seedDemo) app.log.info({ companyId: config.defaultCompanyId }, 'demo data seeded');

  // SIGTERM drains (plugins/external/drain.ts, docs/operations.md "Scaling"): no new connection, the
  // consoles' event streams told to reconnect elsewhere, the requests in flight finished; then it exits.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, instance: config.instance }, 'draining');
    const force = setTimeout(() => process.exit(1), (config.drainSeconds + 5) * 1000);
    force.unref();
    app.drain
      .begin()
      .then((drained) => {
        if (!drained) app.log.warn({ seconds: config.drainSeconds }, 'drain: requests still in flight at the deadline; closing them');
        return app.close().then(() => drained);
      })
      .then(
        (drained) => process.exit(drained ? 0 : 1),
        (err: unknown) => {
          app.log.error({ err }, 'close failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error('lobby server failed to start:', err);
  process.exit(1);
});
