import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { seedDemo } from '../../src/db/seed.ts';
import type { Db } from '../../src/db/database.ts';
import type { App } from '../../src/typebox.ts';
import { DEMO, freshDb, testConfig } from './context.ts';
import type { TestDb } from './context.ts';
import { createFakeEjabberd, createFakeJanus } from './fakes.ts';

/** One server instance of several on one database: its own app, bus connection, clock and port. */
export interface Instance {
  app: App;
  port: number;
  clock: { now: number };
}

export interface Instances {
  db: Db;
  instances: Instance[];
  close(): Promise<void>;
}

/**
 * Several server instances side by side on one fresh PostgreSQL schema, as in a deployment with several
 * instances (docs/architecture.md "Shared state"): each app is built by the app factory with no injected
 * event bus, so each picks the PostgreSQL bus with its own listening connection. Each has its own clock
 * (a test stops one instance's heartbeat by freezing its clock); all start at the same time.
 */
export async function createInstances(count: number, options: { companyCacheMs?: number } = {}): Promise<Instances> {
  const t: TestDb = await freshDb('postgres');
  await seedDemo(t.db, { companyId: DEMO.companyId, agentPassword: DEMO.agentPassword, adminPassword: DEMO.adminPassword });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-data-'));
  const config = testConfig({ dataDir, ...(options.companyCacheMs !== undefined ? { companyCacheMs: options.companyCacheMs } : {}) });
  const start = Date.now();
  const instances: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const clock = { now: start };
    const app = await buildApp(config, { db: t.db, ejabberd: createFakeEjabberd(), janus: createFakeJanus(), now: () => clock.now, logger: false, web: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    instances.push({ app, port: (app.server.address() as AddressInfo).port, clock });
  }
  return {
    db: t.db,
    instances,
    async close() {
      // an instance a test closed already stays closed
      for (const i of instances) if (i.app.server.listening) await i.app.close();
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
