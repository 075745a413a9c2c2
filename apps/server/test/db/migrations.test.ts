import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/db/seed.ts';
import { verifyPassword } from '../../src/services/passwords.ts';
import { dialects, freshDb } from '../helpers/context.ts';
import type { TestDb } from '../helpers/context.ts';
import { addCompany } from '../helpers/fixtures.ts';

describe.each(dialects())('migrations and demo seed (%s)', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(dialect);
  });
  afterAll(async () => t.drop());

  it('when migrations run again, then nothing is applied twice', async () => {
    // under the schema lock on PostgreSQL: another test file dropping its schema meanwhile would make the
    // migrator's look at every schema's tables fail (helpers/context.ts freshDb)
    const again = await t.migrate();
    expect(again.results).toEqual([]);
  });

  it('when the demo seed runs twice, then company 18, Sales/Support and the two users exist once', async () => {
    const opts = { companyId: 18, agentPassword: 'agent-pw-1', adminPassword: 'admin-pw-1' };
    await seedDemo(t.db, opts);
    await seedDemo(t.db, { ...opts, agentPassword: 'changed' });

    const k = t.db.kysely;
    const companies = await k.selectFrom('companies').selectAll().execute();
    expect(companies).toMatchObject([{ id: 18, name: 'Lobby Demo', host: 'localhost', activated: 1 }]);
    const assignments = await k.selectFrom('assignments').select(['name', 'type']).where('company_id', '=', 18).orderBy('position').execute();
    expect(assignments).toEqual([
      { name: 'Sales', type: 'queue' },
      { name: 'Support', type: 'queue' },
    ]);
    const users = await k.selectFrom('users').select(['id', 'email', 'role', 'password_hash', 'xmpp_username']).orderBy('email').execute();
    expect(users.map((u) => [u.email, u.role, u.xmpp_username])).toEqual([
      ['admin@demo.lobby', 'admin', 'admin-18'],
      ['agent@demo.lobby', 'agent', 'agent-18'],
    ]);
    const agent = users[1];
    expect(await verifyPassword('agent-pw-1', agent?.password_hash ?? '')).toBe(true);
    const links = await k.selectFrom('user_assignments').selectAll().where('user_id', '=', agent?.id ?? 0).execute();
    expect(links).toHaveLength(2);
  });

  it('when a company is created after the seed, then it gets a fresh id (the id sequence moved past 18)', async () => {
    const id = await addCompany(t.db, { name: 'Next' });
    expect(id).toBeGreaterThan(18);
  });

  it('when the database answers, then ping is true; timestamps come back as numbers', async () => {
    expect(await t.db.ping()).toBe(true);
    const row = await t.db.kysely.selectFrom('companies').select('created_at').where('id', '=', 18).executeTakeFirstOrThrow();
    expect(typeof row.created_at).toBe('number');
  });
});
