/**
 * The two servers of bench/api, in one child process so the load generator (the parent) does not share its
 * event loop: Lobby's real app on a fresh migrated SQLite (or DATABASE_URL) with the demo company, and a
 * bare Fastify route answering the same shape with no work. Prints one JSON line `{lobby, bare, guests}`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import Fastify from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDb } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemo } from '../../apps/server/src/db/seed.ts';
import type { EjabberdClient } from '../../apps/server/src/services/ejabberd.ts';
import type { MediaRooms } from '../../apps/server/src/services/media/mediaRooms.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-bench-'));
const secret = () => crypto.randomBytes(24).toString('hex');
const config = loadConfig({
  NODE_ENV: 'production',
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${path.join(dir, 'lobby.sqlite')}`,
  LOBBY_DATA_DIR: dir,
  XMPP_JWT_SECRET: secret(),
  API_TOKEN_SECRET: secret(),
  SESSION_SECRET: secret(),
  EJABBERD_EVENTS_SECRET: secret(),
  JANUS_TOKEN_SECRET: secret(),
  JANUS_ROOM_ADMIN_KEY: secret(),
  LOBBY_REGISTER_RATE_LIMIT: '100000',
});
// PostgreSQL: a fresh schema per run (dropped at the end), so each run starts from empty tables as on SQLite
const pgSchema = config.databaseUrl.startsWith('sqlite:') ? undefined : `lobby_bench_${crypto.randomBytes(6).toString('hex')}`;
const pgAdmin = async (statement: string) => {
  const admin = openDb(config.databaseUrl);
  if (admin.raw.dialect === 'postgres') await admin.raw.pool.query(statement);
  await admin.close();
};
if (pgSchema) await pgAdmin(`create schema ${pgSchema}`);
const db = openDb(config.databaseUrl, { backgroundCheckpoint: true, ...(pgSchema ? { pgSchema } : {}) }); // as apps/server/src/main.ts
await migrateToLatest(db);
const agentPassword = secret();
await seedDemo(db, { companyId: config.defaultCompanyId, agentPassword, adminPassword: secret() });
// every bench request comes from one address, and a run cut short leaves its visits' calls open: the cap on
// one address's open calls (docs/security.md "Open calls") is lifted as the registration limit is above
await db.kysely
  .updateTable('companies')
  .set({ settings: JSON.stringify({ roundRobin: true, maxOpenCallsPerAddress: 0 }) })
  .where('id', '=', config.defaultCompanyId)
  .execute();

// Room provisioning is ejabberd's job and not what is measured: a no-op stands in for it.
const ejabberd: EjabberdClient = { ensureRoom: () => Promise.resolve(), setAffiliation: () => Promise.resolve(), status: () => Promise.resolve(true), roomOccupants: () => Promise.resolve(null), roomGuests: () => Promise.resolve(null), guestOnline: () => Promise.resolve(null), destroyRoom: () => Promise.resolve() };
// Both servers without request logging, so the ratio compares the routes, not pino.
// Nor is Janus's: an agent's media grant (what makes a call answered for its rating) without a Janus room.
const grant = { room: 'bench', pin: 'bench', token: 'bench', expires_in: 3600 };
const mediaRooms: MediaRooms = {
  grantGuest: () => Promise.resolve(grant),
  grantAgent: () => Promise.resolve(grant),
  startRecording: () => Promise.resolve(),
  recordArmed: () => Promise.resolve(false),
  secretOf: () => Promise.resolve(null),
  nodeOf: () => Promise.resolve(null),
  end: () => Promise.resolve(),
  sweepStale: () => Promise.resolve(),
};
const lobby = await buildApp(config, { db, ejabberd, mediaRooms, logger: false, web: false });
const lobbyAddress = await lobby.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify({ logger: false });
let n = 0;
bare.post('/api/call-report/add', async (_req, reply) => reply.code(201).send({ data: { id: ++n, status: 'ok' } }));
// the other routes of the mixed run (bench/api/run.ts), each answering its route's shape with no work
bare.post('/api/guest/register', async (_req, reply) =>
  reply.code(201).send({ data: { username: `g${++n}`, access_token: 'bare', expires_in: 7200, companyId: 18, xmpp: null } }),
);
bare.put('/api/call-report/update-timestamp', (_req, reply) => reply.send({ data: { id: n, updated: ['call_answered_timestamp'] } }));
bare.post('/api/console/calls/:callId/media', async (_req, reply) => reply.send({ data: grant }));
bare.post('/api/rating-form/submissions', async (_req, reply) => reply.code(201).send({ data: { id: ++n } }));
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

// Guests whose tokens the load generator cycles through (each call id must start with its guest's username).
const guests: Array<{ username: string; token: string }> = [];
for (let i = 0; i < 50; i++) {
  const res = await lobby.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: crypto.randomBytes(16).toString('hex') } });
  const { data } = res.json<{ data: { username: string; access_token: string } }>();
  guests.push({ username: data.username, token: data.access_token });
}
// The demo agent's console session: it answers each visit's call (its media grant) before the guest rates it.
const login = await lobby.inject({ method: 'POST', url: '/api/console/login', payload: { email: 'agent@demo.lobby', password: agentPassword } });
const session = login.cookies.find((c) => c.name === 'lobby_session');
if (!session) throw new Error(`bench: the demo agent's login failed (${login.statusCode})`);
const agentCookie = `lobby_session=${session.value}`;
console.log(JSON.stringify({ lobby: lobbyAddress, bare: bareAddress, guests, agentCookie, dialect: db.dialect }));

// Each line on stdin asks for this process's CPU time so far (µs, user + system): the parent takes it before
// and after each run, so a run's CPU per request does not depend on what else the machine is doing.
readline.createInterface({ input: process.stdin }).on('line', () => {
  const { user, system } = process.cpuUsage();
  console.log(JSON.stringify({ cpuMicros: user + system }));
});

process.on('SIGTERM', () => {
  void Promise.all([lobby.close(), bare.close()]).then(async () => {
    await db.close();
    if (pgSchema) await pgAdmin(`drop schema ${pgSchema} cascade`);
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
