import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addUser } from '../../../helpers/fixtures.ts';
import { ACCOUNT_FREE_FAILURES, FREE_FAILURES } from '../../../../src/services/loginThrottle.ts';

/**
 * Console logins are throttled per account with a progressive delay, and the owner's
 * right password from another address is never locked out by someone guessing elsewhere.
 */
/** 30-odd logins, each reading and writing the shared throttle rows (docs/operations.md "Shared state: jobs, limits and files") */
const MANY_LOGINS_MS = 90_000;

describe.each(dialects())('POST /api/console/login throttling per account (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/console/login', payload: { email, password }, remoteAddress });
  const newAccount = async () => addUser(t.db, { companyId: DEMO.companyId, password: 'right-password-1' });

  it('when one address keeps guessing, then it waits 1 s, 2 s, 4 s … and a try inside the wait is refused even with the right password', async () => {
    const u = await newAccount();
    for (let i = 0; i < FREE_FAILURES; i++) expect((await login(u.email, 'wrong-guess', '203.0.113.1')).statusCode).toBe(401);
    const early = await login(u.email, u.password, '203.0.113.1');
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json<{ message: string }>().message).toMatch(/^email: too many wrong passwords/);

    t.clock.now += 1000;
    expect((await login(u.email, 'wrong-again', '203.0.113.1')).statusCode).toBe(401);
    const second = await login(u.email, u.password, '203.0.113.1');
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('2');
    t.clock.now += 2000;
    expect((await login(u.email, u.password, '203.0.113.1')).statusCode).toBe(200);
    // the success forgot this address's failures
    expect((await login(u.email, 'wrong-guess', '203.0.113.1')).statusCode).toBe(401);
  });

  it('when another address is guessing an account, then the right password from the owner\'s address still logs in', async () => {
    const u = await newAccount();
    for (let i = 0; i < FREE_FAILURES + 1; i++) await login(u.email, `wrong-${i}`, '198.51.100.7');
    expect((await login(u.email, 'wrong-x', '198.51.100.7')).statusCode).toBe(429);
    expect((await login(u.email, u.password, '192.0.2.10')).statusCode).toBe(200);
  });

  it('when many addresses guess one account, then new addresses are slowed but an address that logged in before is not', async () => {
    const u = await newAccount();
    expect((await login(u.email, u.password, '192.0.2.20')).statusCode).toBe(200);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await login(u.email, 'wrong', `10.9.${Math.floor(i / 250)}.${i % 250}`)).statusCode).toBe(401);
    const stranger = await login(u.email, u.password, '192.0.2.99');
    expect(stranger.statusCode).toBe(429);
    expect((await login(u.email, u.password, '192.0.2.20')).statusCode).toBe(200);
  }, MANY_LOGINS_MS);

  it('when the email is spelled with other capitals, then it is the same account for the throttle', async () => {
    const u = await newAccount();
    for (let i = 0; i < FREE_FAILURES; i++) await login(u.email.toUpperCase(), 'wrong', '203.0.113.50');
    expect((await login(u.email, u.password, '203.0.113.50')).statusCode).toBe(429);
  });

  // Each spelling the account lookup takes for this email: white space of several kinds (trim() removes
  // more than 25), capitals, full-width letters (NFKC).
  const spellings = (email: string) => [
    ` ${email}`,
    `  ${email}`,
    `\t${email}`,
    `${email}\n`,
    `\u00a0${email}`,
    `\u3000${email}\u3000`,
    `\ufeff${email}`,
    email.toUpperCase(),
    email.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41)),
  ];

  it('when the email is spelled with white space, other capitals or full-width letters, then every spelling is the same account for the throttle', async () => {
    const u = await newAccount();
    const tries = spellings(u.email);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await login(tries[i % tries.length] as string, 'wrong', '203.0.113.60')).statusCode);
    expect(answers).toEqual([401, 401, 401, ...Array<number>(9).fill(429)]);
    expect((await login(` ${u.email}`, u.password, '203.0.113.60')).statusCode).toBe(429);
  });

  it('when many addresses guessed an account, then no spelling of its email lets a new address in with the right password', async () => {
    const u = await newAccount();
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
      const spelling = spellings(u.email)[i % 9] as string;
      expect((await login(spelling, 'wrong', `10.8.${Math.floor(i / 250)}.${i % 250}`)).statusCode).toBe(401);
    }
    for (const spelling of [u.email, ...spellings(u.email)]) expect((await login(spelling, u.password, '192.0.2.77')).statusCode).toBe(429);
  }, MANY_LOGINS_MS);

  it('when the owner types the email with spaces or full-width letters, then the right password logs in', async () => {
    const u = await newAccount();
    for (const [i, spelling] of spellings(u.email).entries()) expect((await login(spelling, u.password, `192.0.2.${100 + i}`)).statusCode).toBe(200);
  });
});
