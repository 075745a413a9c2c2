/**
 * A second, activated company on the test stack (the demo seed has one), for the journeys that need a
 * guest of another company. Written straight into the stack's database: no API creates companies.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { execute } from './db.ts';

export const OTHER_COMPANY_ID = 9001;

export async function ensureOtherCompany(): Promise<number> {
  await execute(
    'insert into companies (id, name, host, activated, settings, created_at) values (?, ?, ?, ?, ?, ?) on conflict (id) do nothing',
    [OTHER_COMPANY_ID, 'Other Co (e2e)', 'other.invalid', 1, '{}', Date.now()],
  );
  return OTHER_COMPANY_ID;
}

/**
 * An agent of the other company, able to sign in to the console (and so to get its XMPP credential).
 * Written into the database with a scrypt hash in the server's format (services/passwords.ts); its
 * password is set again on each call, so the returned login always works.
 */
export async function ensureOtherCompanyAgent(): Promise<{ email: string; password: string }> {
  await ensureOtherCompany();
  const email = 'agent@other.invalid';
  const password = `other-${randomBytes(9).toString('base64url')}`;
  const salt = randomBytes(16);
  const N = 2 ** 15;
  const hash = scryptSync(password.normalize('NFC'), salt, 32, { N, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const passwordHash = `scrypt$${N}$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
  await execute(
    'insert into users (company_id, email, name, role, password_hash, xmpp_username, created_at) values (?, ?, ?, ?, ?, ?, ?) ' +
      'on conflict (email) do update set password_hash = excluded.password_hash',
    [OTHER_COMPANY_ID, email, 'Other Agent', 'agent', passwordHash, `u${randomBytes(8).toString('hex')}`, Date.now()],
  );
  return { email, password };
}
