/**
 * Console login throttling per account (docs/security.md "Accounts and transport"; OWASP ASVS V6.3 / V2.2.1).
 *
 * Two progressive delays, both in memory (a restart forgets them, which only gives an attacker a fresh
 * start at the same slow pace):
 * - per account and address: after FREE_FAILURES wrong passwords for one email from one address, that
 *   address must wait 1 s, 2 s, 4 s … (at most MAX_DELAY_MS) before its next try for that email. A try
 *   inside the wait is refused without checking the password, so guessing cannot go faster than the delay.
 *   Other addresses are not slowed by it: the right password from elsewhere still logs in.
 * - per account, from anywhere: after ACCOUNT_FREE_FAILURES wrong passwords (many addresses guessing one
 *   account), new addresses wait in the same way; an address that logged into this account before keeps
 *   logging in, so a distributed attack does not lock the owner out.
 * Failures are forgotten FORGET_MS after the last one; a successful login clears its address's count.
 * The account is the email as the lookup matches it (services/emailAddress.ts): every spelling of one
 * address (white space, capitals, full-width letters) shares one count.
 */
import { normaliseEmail } from './emailAddress.ts';

export const FREE_FAILURES = 3;
export const ACCOUNT_FREE_FAILURES = 30;
export const MAX_DELAY_MS = 15 * 60 * 1000;
export const FORGET_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 50_000;

interface Failures {
  count: number;
  last: number;
}

const delayAfter = (count: number, free: number) => (count < free ? 0 : Math.min(1000 * 2 ** (count - free), MAX_DELAY_MS));

/** A Map that forgets its oldest entries beyond MAX_ENTRIES (a flood of addresses cannot grow it without end). */
function boundedSet<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
}

export function createLoginThrottle(now: () => number) {
  const pairs = new Map<string, Failures>();
  const accounts = new Map<string, Failures>();
  const knownAddresses = new Map<string, number>();
  const pairKey = (email: string, ip: string) => `${email}\u0000${ip}`;
  const fresh = (f: Failures | undefined) => (f && now() - f.last < FORGET_MS ? f : undefined);
  const waitOf = (f: Failures | undefined, free: number) => {
    const live = fresh(f);
    return live ? Math.max(0, live.last + delayAfter(live.count, free) - now()) : 0;
  };
  const bump = (map: Map<string, Failures>, key: string) => {
    const f = fresh(map.get(key));
    boundedSet(map, key, { count: (f?.count ?? 0) + 1, last: now() });
  };

  return {
    /** Milliseconds this address must still wait before it may try this email (0: it may try now). */
    waitMs(emailRaw: string, ip: string): number {
      const email = normaliseEmail(emailRaw);
      const own = waitOf(pairs.get(pairKey(email, ip)), FREE_FAILURES);
      const known = (knownAddresses.get(pairKey(email, ip)) ?? -Infinity) > now() - 30 * 24 * 3600_000;
      const account = known ? 0 : waitOf(accounts.get(email), ACCOUNT_FREE_FAILURES);
      return Math.max(own, account);
    },
    failed(emailRaw: string, ip: string): void {
      const email = normaliseEmail(emailRaw);
      bump(pairs, pairKey(email, ip));
      bump(accounts, email);
    },
    succeeded(emailRaw: string, ip: string): void {
      const email = normaliseEmail(emailRaw);
      pairs.delete(pairKey(email, ip));
      boundedSet(knownAddresses, pairKey(email, ip), now());
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
