import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { App } from '../../typebox.ts';

/** Per-IP limits, opted into per route (`config.rateLimit`); the client IP honours TRUST_PROXY. */
export default fp(
  async function registerRateLimit(app: App): Promise<void> {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: ctx.statusCode,
        error: 'Too Many Requests',
        message: `rate limit exceeded, retry in ${ctx.after}`,
      }),
    });
  },
  { name: 'rate-limit' },
);
