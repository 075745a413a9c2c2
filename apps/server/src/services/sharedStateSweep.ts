/**
 * Deletes what the shared limits no longer need (docs/operations.md "Shared state: jobs, limits and
 * files"): the rate limits' rows of past windows (services/rateLimitStore.ts) and the login throttle's
 * forgotten counts (services/loginThrottle.ts). A job of one instance at a time.
 */
import type { Services } from './index.ts';
import { createPeriodicJob, type PeriodicJob } from './periodicJob.ts';
import { sweepRateLimits } from './rateLimitStore.ts';

export function createSharedStateSweep(
  services: Pick<Services, 'db' | 'loginThrottle' | 'now'>,
  log?: (message: string, error?: unknown) => void,
): PeriodicJob<{ rateLimits: number; logins: number }> {
  return createPeriodicJob(
    'shared-state sweep',
    async () => ({ rateLimits: await sweepRateLimits(services.db.kysely, services.now()), logins: await services.loginThrottle.sweep() }),
    log,
  );
}
