import crypto from 'node:crypto';
import type { Db } from './database.ts';
import { hashPassword } from '../services/passwords.ts';
import { normaliseEmail } from '../services/emailAddress.ts';

export interface NewCompany {
  name: string;
  /** the host name guests open (the company is found by it: services/guests.ts resolveCompany) */
  host: string;
  adminEmail: string;
  adminName: string;
  adminPassword: string;
  now?: number;
}

export type CreateCompanyResult =
  { companyId: number; adminUserId: number } | { error: string; field: keyof NewCompany };

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A company of a production deployment and its first administrator (docs/operations.md "First company"):
 * activated, found by its host name, with one queue ("General") that the administrator answers until
 * the console's administration adds agents and assignments. Refuses a host or email already in use.
 */
export async function createCompany(db: Db, c: NewCompany): Promise<CreateCompanyResult> {
  const name = c.name.trim();
  const host = c.host.trim().toLowerCase();
  const email = normaliseEmail(c.adminEmail);
  if (!name || name.length > 200) return { field: 'name', error: 'name: 1 to 200 characters' };
  if (!HOST.test(host))
    return { field: 'host', error: `host: "${c.host}" is not a host name (e.g. support.example.com)` };
  if (!EMAIL.test(email) || email.length > 254)
    return { field: 'adminEmail', error: `admin email: "${c.adminEmail}" is not an email address` };
  if (c.adminPassword.length < 12)
    return { field: 'adminPassword', error: 'admin password: at least 12 characters' };
  const k = db.kysely;
  if (await k.selectFrom('companies').select('id').where('host', '=', host).executeTakeFirst()) {
    return { field: 'host', error: `host: a company already answers on ${host}` };
  }
  if (await k.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) {
    return { field: 'adminEmail', error: `admin email: ${email} already has an account` };
  }
  const now = c.now ?? Date.now();
  const passwordHash = await hashPassword(c.adminPassword);
  return k.transaction().execute(async (trx) => {
    const company = await trx
      .insertInto('companies')
      .values({ name, host, activated: 1, settings: JSON.stringify({}), created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const queue = await trx
      .insertInto('assignments')
      .values({ company_id: company.id, name: 'General', type: 'queue', position: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await trx
      .insertInto('users')
      .values({
        company_id: company.id,
        email,
        name: c.adminName.trim() || email,
        role: 'admin',
        password_hash: passwordHash,
        xmpp_username: `u${crypto.randomBytes(8).toString('hex')}`,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('user_assignments').values({ user_id: admin.id, assignment_id: queue.id }).execute();
    return { companyId: company.id, adminUserId: admin.id };
  });
}
