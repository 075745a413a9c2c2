/**
 * Round robin's cost on SQLite now that its state is in tables (docs/architecture.md "Shared state"),
 * against a baseline in the same run: one select of a row by its primary key on the same database. The
 * ratio is the result: how many such selects one call's routing (offer, decline, close), one deadline
 * poll (every second) and one beat (every 5 s) cost. Ten agents of one assignment are present.
 *
 *   node bench/round-robin.ts [rounds=2000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { RoundRobin } from '../apps/server/src/services/roundRobin.ts';

const rounds = Number(process.argv[2] ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-rr-bench-'));
const db = openDb(`sqlite:${path.join(dir, 'bench.sqlite')}`);
await migrateToLatest(db);
const company = (await db.kysely.insertInto('companies').values({ name: 'Bench', host: 'bench', activated: 1, settings: '{}', created_at: 0 }).returning('id').executeTakeFirstOrThrow()).id;
const assignment = (
  await db.kysely.insertInto('assignments').values({ company_id: company, name: 'Desk', type: 'queue', position: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
).id;
const timers = { now: () => Date.now(), setTimeout: () => null, clearTimeout: () => undefined };
const rr = new RoundRobin({ db, instanceId: 'bench', timers, publish: () => undefined });
const agents = new Map<string, number>();
for (let i = 0; i < 10; i++) {
  const user = { company_id: company, email: `agent${i}@bench`, name: 'Agent', role: 'agent' as const, password_hash: 'x', xmpp_username: `agent${i}`, created_at: 0 };
  const id = (await db.kysely.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow()).id;
  await db.kysely.insertInto('user_assignments').values({ user_id: id, assignment_id: assignment }).execute();
  await rr.connect({ userId: id, companyId: company, xmppUsername: user.xmpp_username });
  agents.set(user.xmpp_username, id);
}

const baseline = () => db.kysely.selectFrom('companies').select('id').where('id', '=', company).executeTakeFirst();

/**
 * `fn` against the baseline, alternating chunks of 50 runs of each so that the machine's load at each
 * moment weighs on both alike: µs per run of each, after a warm-up.
 */
async function against(fn: (i: number) => Promise<unknown>): Promise<{ us: number; baseUs: number }> {
  for (let i = 0; i < 50; i++) await fn(-i - 1);
  let spent = 0;
  let baseSpent = 0;
  for (let i = 0; i < rounds; i += 50) {
    let t0 = performance.now();
    for (let j = i; j < i + 50; j++) await fn(j);
    spent += performance.now() - t0;
    t0 = performance.now();
    for (let j = 0; j < 50; j++) await baseline();
    baseSpent += performance.now() - t0;
  }
  return { us: (spent / rounds) * 1000, baseUs: (baseSpent / rounds) * 1000 };
}

const measured: Array<[string, (i: number) => Promise<unknown>]> = [
  [
    "one call's routing: offered, declined (moves on), closed",
    async (i) => {
      const routing = await rr.callOpened({ callId: `call${i}`, companyId: company, assignmentId: assignment });
      await rr.decline(routing.callId, agents.get(routing.offeredTo ?? '') ?? 0);
      await rr.callClosed(routing.callId);
    },
  ],
  ['one deadline poll, nothing due', () => rr.moveDue()],
  ['one beat (10 agents present)', () => rr.beat()],
];
for (const [what, fn] of measured) {
  const { us, baseUs } = await against(fn);
  console.log(`${what}: ${us.toFixed(0)} µs = ${(us / baseUs).toFixed(1)} × one select by primary key (${baseUs.toFixed(0)} µs)`);
}
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
