import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { databaseRateLimitStore } from '../../services/rateLimitStore.ts';
import type { App } from '../../typebox.ts';
import type { AppPluginOptions } from '../app/options.ts';
// app.db (decorated by plugins/app/db.ts, registered after this one; this import only brings its type)
import type {} from '../app/db.ts';

/**
 * Per-IP limits, opted into per route (`config.rateLimit`); the client IP honours TRUST_PROXY. Counted in
 * the database (services/rateLimitStore.ts), so that every server instance shares one count.
 */
export default fp(
  async function registerRateLimit(app: App, { deps }: AppPluginOptions): Promise<void> {
    await app.register(rateLimit, {
      global: false,
      store: databaseRateLimitStore(() => app.db, deps.now ?? Date.now),
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: ctx.statusCode,
        error: 'Too Many Requests',
        message: `rate limit exceeded, retry in ${ctx.after}`,
      }),
    });
  },
  { name: 'rate-limit' },
);
