/**
 * Operator commands for a deployment (docs/operations.md), run on the server with the Lobby server's
 * environment (DATABASE_URL, LOBBY_DATA_DIR):
 *
 *   node apps/server/src/cli/lobby-admin.ts create-company --name "Acme" --host support.acme.com \
 *     --admin-email ops@acme.com [--admin-name "Ops"]
 *
 *   node apps/server/src/cli/lobby-admin.ts janus-nodes | janus-drain NAME | janus-undrain NAME
 *
 * The administrator's password is read from LOBBY_ADMIN_PASSWORD, or generated and printed once. The Janus
 * node commands are cli/janusNodeCommands.ts.
 * Migrates the database first. Exits 0 on success, 2 on a usage or input error (naming the field).
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { createCompany } from '../db/createCompany.ts';
import { openDb, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { JANUS_COMMANDS, JANUS_USAGE, runJanusCommand } from './janusNodeCommands.ts';

const USAGE = `usage: lobby-admin create-company --name NAME --host HOST --admin-email EMAIL [--admin-name NAME]\n${JANUS_USAGE}`;

/** Runs `work` on the server's database (migrated first), with the server's config. */
async function withDatabase(work: (config: Config, db: Db) => Promise<number>): Promise<number> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    LOBBY_SEED_DEMO: '',
  });
  const db = openDb(config.databaseUrl);
  try {
    await migrateToLatest(db);
    return await work(config, db);
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && JANUS_COMMANDS.has(command)) {
    return withDatabase((config, db) => runJanusCommand(command, rest, config, db));
  }
  if (command !== 'create-company') {
    console.error(USAGE);
    return 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        host: { type: 'string' },
        'admin-email': { type: 'string' },
        'admin-name': { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    console.error(`lobby-admin: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const missing = (['name', 'host', 'admin-email'] as const).filter((k) => !values[k]);
  if (missing.length) {
    console.error(`lobby-admin: missing --${missing.join(', --')}\n${USAGE}`);
    return 2;
  }
  const generated = !process.env.LOBBY_ADMIN_PASSWORD;
  const password = process.env.LOBBY_ADMIN_PASSWORD ?? crypto.randomBytes(15).toString('base64url');
  return withDatabase(async (_config, db) => {
    const result = await createCompany(db, {
      name: values.name ?? '',
      host: values.host ?? '',
      adminEmail: values['admin-email'] ?? '',
      adminName: values['admin-name'] ?? '',
      adminPassword: password,
    });
    if ('error' in result) {
      console.error(`lobby-admin: ${result.error}`);
      return 2;
    }
    console.log(
      `company ${result.companyId} created for https://${values.host?.toLowerCase()}/ (console: /console)`,
    );
    console.log(
      `administrator ${values['admin-email']}${generated ? ` with password ${password} (shown once: change it in the console)` : ''}`,
    );
    return 0;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('lobby-admin failed:', err);
    process.exit(1);
  },
);
