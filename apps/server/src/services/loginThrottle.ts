/**
 * Console login throttling per account (docs/security.md "Accounts and transport"; OWASP ASVS V6.3 / V2.2.1).
 *
 * Two progressive delays, kept in the database (login_throttle), so that wrong passwords sent to several
 * server instances in turn count as one (docs/operations.md "Shared state: jobs, limits and files"):
 * - per account and address: after FREE_FAILURES wrong passwords for one email from one address, that
 *   address must wait 1 s, 2 s, 4 s … (at most MAX_DELAY_MS) before its next try for that email. A try
 *   inside the wait is refused without checking the password, so guessing cannot go faster than the delay.
 *   Other addresses are not slowed by it: the right password from elsewhere still logs in.
 * - per account, from anywhere: after ACCOUNT_FREE_FAILURES wrong passwords (many addresses guessing one
 *   account), new addresses wait in the same way; an address that logged into this account before keeps
 *   logging in, so a distributed attack does not lock the owner out.
 * Failures are forgotten FORGET_MS after the last one (their rows swept by sweep(), a job of one instance);
 * a successful login clears its address's count.
 * The account is the email as the lookup matches it (services/emailAddress.ts): every spelling of one
 * address (white space, capitals, full-width letters) shares one count.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { normaliseEmail } from './emailAddress.ts';

export const FREE_FAILURES = 3;
export const ACCOUNT_FREE_FAILURES = 30;
export const MAX_DELAY_MS = 15 * 60 * 1000;
export const FORGET_MS = 60 * 60 * 1000;
/** how long an address that logged in stays known to its account */
const KNOWN_MS = 30 * 24 * 3600_000;

const delayAfter = (count: number, free: number) => (count < free ? 0 : Math.min(1000 * 2 ** (count - free), MAX_DELAY_MS));

/**
 * The rows' keys: wrong passwords per account and address, per account, and the addresses that logged in.
 * The address comes first: it has no `|`, so no email can make two pairs' keys equal (PostgreSQL's text holds no NUL).
 */
const pairKey = (email: string, ip: string) => `pair:${ip}|${email}`;
const accountKey = (email: string) => `account:${email}`;
const knownKey = (email: string, ip: string) => `known:${ip}|${email}`;

export function createLoginThrottle(db: Kysely<Database>, now: () => number) {
  const waitOf = (row: { count: number; last_at: number } | undefined, free: number, at: number) =>
    row && at - Number(row.last_at) < FORGET_MS ? Math.max(0, Number(row.last_at) + delayAfter(Number(row.count), free) - at) : 0;

  /** One more failure under each of `keys`: one statement, so that instances counting at once lose none. */
  const bump = (keys: string[], at: number) =>
    db
      .insertInto('login_throttle')
      .values(keys.map((key) => ({ key, count: 1, last_at: at })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          // a count older than FORGET_MS starts again
          count: sql<number>`case when login_throttle.last_at <= ${at - FORGET_MS} then 1 else login_throttle.count + 1 end`,
          last_at: at,
        }),
      )
      .execute();

  return {
    /** Milliseconds this address must still wait before it may try this email (0: it may try now). */
    async waitMs(emailRaw: string, ip: string): Promise<number> {
      const email = normaliseEmail(emailRaw);
      const at = now();
      const rows = await db
        .selectFrom('login_throttle')
        .select(['key', 'count', 'last_at'])
        .where('key', 'in', [pairKey(email, ip), accountKey(email), knownKey(email, ip)])
        .execute();
      const row = (key: string) => rows.find((r) => r.key === key);
      const own = waitOf(row(pairKey(email, ip)), FREE_FAILURES, at);
      const known = Number(row(knownKey(email, ip))?.last_at ?? -Infinity) > at - KNOWN_MS;
      const account = known ? 0 : waitOf(row(accountKey(email)), ACCOUNT_FREE_FAILURES, at);
      return Math.max(own, account);
    },
    async failed(emailRaw: string, ip: string): Promise<void> {
      const email = normaliseEmail(emailRaw);
      await bump([pairKey(email, ip), accountKey(email)], now());
    },
    async succeeded(emailRaw: string, ip: string): Promise<void> {
      const email = normaliseEmail(emailRaw);
      const at = now();
      await db.deleteFrom('login_throttle').where('key', '=', pairKey(email, ip)).execute();
      await db
        .insertInto('login_throttle')
        .values({ key: knownKey(email, ip), count: 0, last_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ last_at: at }))
        .execute();
    },
    /** Deletes the counts forgotten and the addresses no longer known; resolves with the rows deleted. */
    async sweep(): Promise<number> {
      const at = now();
      const result = await db
        .deleteFrom('login_throttle')
        .where((eb) =>
          eb.or([
            eb.and([eb('key', 'like', 'known:%'), eb('last_at', '<=', at - KNOWN_MS)]),
            eb.and([eb('key', 'not like', 'known:%'), eb('last_at', '<=', at - FORGET_MS)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
