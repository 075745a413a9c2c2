/**
 * A second server instance beside a test context's app: its own app from the app factory, its own
 * connections to the same database, its own data dir (instances on other machines share nothing on disk)
 * and event bus; the same ejabberd, Janus and clock. What docs/operations.md "Shared state: jobs, limits
 * and files" says every instance shares goes through the database only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { createEventBus } from '../../src/services/events.ts';
import type { App } from '../../src/typebox.ts';
import type { TestContext } from './context.ts';

export interface SecondInstance {
  app: App;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

export async function secondInstance(t: TestContext, options: { config?: Partial<Config>; deps?: Partial<AppDeps> } = {}): Promise<SecondInstance> {
  const db = t.reopen();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-data-b-'));
  const config = { ...t.config, dataDir, ...options.config };
  const app = await buildApp(config, {
    db,
    ejabberd: t.ejabberd,
    janus: t.janus,
    events: createEventBus(),
    now: () => t.clock.now,
    logger: false,
    ...options.deps,
  });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
