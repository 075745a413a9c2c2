/**
 * The rows of the shared limits do not pile up (docs/operations.md "Shared state: jobs, limits and
 * files"): the sweep deletes rate-limit windows that ended and login failures forgotten, and keeps the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGET_MS } from '../../src/services/loginThrottle.ts';
import { countHit } from '../../src/services/rateLimitStore.ts';
import { createSharedStateSweep } from '../../src/services/sharedStateSweep.ts';
import { createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';

describe.each(dialects())('the shared-state sweep (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const keys = async (table: 'rate_limits' | 'login_throttle') => (await t.db.kysely.selectFrom(table).select('key').execute()).map((r) => r.key).sort();

  it('when a rate-limit window ended and a login failure is older than its memory, then the sweep deletes them and keeps the live ones', async () => {
    expect((await countHit(t.db, 'old-route-1.2.3.4', 60_000, t.clock.now)).current).toBe(1);
    expect((await countHit(t.db, 'old-route-1.2.3.4', 60_000, t.clock.now)).current).toBe(2);
    await t.app.services.loginThrottle.failed('old@example.com', '192.0.2.1');
    t.clock.now += FORGET_MS + 1;
    await countHit(t.db, 'live-route-1.2.3.4', 60_000, t.clock.now);
    await t.app.services.loginThrottle.failed('live@example.com', '192.0.2.2');
    await t.app.services.loginThrottle.succeeded('owner@example.com', '192.0.2.3');
    const sweep = createSharedStateSweep(t.app.services);

    const deleted = await sweep.runOnce();

    expect(deleted).toEqual({ rateLimits: 1, logins: 2 });
    expect(await keys('rate_limits')).toEqual([expect.stringMatching(/^live-route-1\.2\.3\.4@/)]);
    expect(await keys('login_throttle')).toEqual(['account:live@example.com', 'known:192.0.2.3|owner@example.com', 'pair:192.0.2.2|live@example.com']);
  });
});
