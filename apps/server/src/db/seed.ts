import { sql } from 'kysely';
import type { Db } from './database.ts';
import { hashPassword } from '../services/passwords.ts';

export interface SeedOptions {
  companyId: number;
  agentPassword: string;
  adminPassword: string;
  now?: number;
}

/**
 * The demo company (LOBBY_SEED_DEMO=1). Idempotent: creates what is missing, never overwrites what exists
 * (an admin who changed the demo settings or passwords keeps them).
 */
export async function seedDemo(db: Db, opts: SeedOptions): Promise<void> {
  const k = db.kysely;
  const now = opts.now ?? Date.now();
  const companyId = opts.companyId;

  await k
    .insertInto('companies')
    .values({
      id: companyId,
      name: 'Lobby Demo',
      host: 'localhost',
      activated: 1,
      // round robin: a new guest is offered to the agents in turn (presence target 'roundRobin')
      settings: JSON.stringify({ roundRobin: true, welcomeMsg: 'Talk to our team, face to face.' }),
      created_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  if (db.dialect === 'postgres') {
    // An explicit id does not move the identity sequence.
    await sql`select setval(pg_get_serial_sequence('companies', 'id'), greatest((select max(id) from companies), 1))`.execute(k);
  }

  const assignmentIds: number[] = [];
  for (const [position, name] of ['Sales', 'Support'].entries()) {
    const found = await k.selectFrom('assignments').select('id').where('company_id', '=', companyId).where('name', '=', name).executeTakeFirst();
    if (found) {
      assignmentIds.push(found.id);
      continue;
    }
    const row = await k
      .insertInto('assignments')
      .values({ company_id: companyId, name, type: 'queue', position, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    assignmentIds.push(row.id);
  }

  const users = [
    { email: 'agent@demo.lobby', name: 'Demo Agent', role: 'agent' as const, password: opts.agentPassword, xmpp: `agent-${companyId}` },
    { email: 'admin@demo.lobby', name: 'Demo Admin', role: 'admin' as const, password: opts.adminPassword, xmpp: `admin-${companyId}` },
  ];
  for (const u of users) {
    let user = await k.selectFrom('users').select('id').where('email', '=', u.email).executeTakeFirst();
    if (!user) {
      if (!u.password) throw new Error(`seed: no password for ${u.email}`);
      user = await k
        .insertInto('users')
        .values({
          company_id: companyId,
          email: u.email,
          name: u.name,
          role: u.role,
          password_hash: await hashPassword(u.password),
          xmpp_username: u.xmpp,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    }
    if (u.role === 'agent') {
      await k
        .insertInto('user_assignments')
        .values(assignmentIds.map((assignment_id) => ({ user_id: user.id, assignment_id })))
        .onConflict((oc) => oc.columns(['user_id', 'assignment_id']).doNothing())
        .execute();
    }
  }
}
