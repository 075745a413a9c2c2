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

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
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
