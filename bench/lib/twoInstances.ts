/**
 * The set-up the benches across server instances share (docs/architecture.md "Shared state"): N
 * instances of the app factory on a fresh schema of LOBBY_TEST_PG_URL (the server tests' helper), the
 * demo company's settings as a bench needs them, a pool of registered guests, and agents of the Sales
 * assignment whose console streams are open on a given instance.
 */
import pg from 'pg';
import { DEMO } from '../../apps/server/test/helpers/context.ts';
import { addUser, login, registerGuest } from '../../apps/server/test/helpers/fixtures.ts';
import type { RegisteredGuest } from '../../apps/server/test/helpers/fixtures.ts';
import { createInstances } from '../../apps/server/test/helpers/instances.ts';
import type { Instance, Instances } from '../../apps/server/test/helpers/instances.ts';
import { consoleStream, type ConsoleStream } from './consoleStream.ts';

export type { Instance, Instances };

export function requirePostgres(bench: string): void {
  if (process.env.LOBBY_TEST_PG_URL) return;
  console.error(`${bench}: set LOBBY_TEST_PG_URL=postgres://… (a database the bench may make a schema in)`);
  process.exit(2);
}

/**
 * `count` instances whose clocks follow the real one (the helper's clocks stand still unless moved), with
 * the demo company's settings changed by `settings` (every call of a bench comes from one address).
 */
export async function benchInstances(count: number, settings: Record<string, unknown>): Promise<Instances & { salesId: number; guests: RegisteredGuest[] }> {
  const s = await createInstances(count);
  const ticking = setInterval(() => {
    for (const i of s.instances) i.clock.now = Date.now();
  }, 5);
  const company = await s.db.kysely.selectFrom('companies').select('settings').where('id', '=', DEMO.companyId).executeTakeFirstOrThrow();
  const merged = { ...(JSON.parse(company.settings) as Record<string, unknown>), maxOpenCallsPerAddress: 0, ...settings };
  await s.db.kysely.updateTable('companies').set({ settings: JSON.stringify(merged) }).where('id', '=', DEMO.companyId).execute();
  const first = s.instances[0]!;
  // guests registered once and reused (registration is rate-limited): a guest's new call ends its earlier one
  const guests: RegisteredGuest[] = [];
  for (let i = 0; i < 50; i++) guests.push(await registerGuest(first.app));
  return {
    ...s,
    salesId: guests[0]?.guestRooms[0]?.assignmentId ?? 0,
    guests,
    async close() {
      clearInterval(ticking);
      await s.close();
    },
  };
}

/** A new agent of the Sales assignment whose console's event stream is open on `on`. */
export async function agentOn(s: Instances & { salesId: number }, on: Instance): Promise<{ xmpp: string; stream: ConsoleStream }> {
  const u = await addUser(s.db, { companyId: DEMO.companyId, password: 'instances-bench-pw', assignmentIds: [s.salesId] });
  const xmpp = (await s.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', u.id).executeTakeFirstOrThrow()).xmpp_username;
  return { xmpp, stream: await consoleStream(on.port, await login(on.app, u.email, u.password)) };
}

/**
 * Samples the database's connections (pg_stat_activity, the sampler's own left out) every 100 ms until
 * stopped: the peak.
 */
export async function connectionSampler(): Promise<{ stop(): Promise<number> }> {
  const admin = new pg.Client({ connectionString: process.env.LOBBY_TEST_PG_URL });
  await admin.connect();
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      peak = Math.max(peak, Number(rows[0]?.n ?? 0));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await admin.end();
      return peak;
    },
  };
}
