import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { App } from '../../typebox.ts';

/** Cookie parsing for the console session (lobby_session, plugins/app/auth.ts). */
export default fp(
  async (app: App) => {
    await app.register(cookie);
  },
  { name: 'cookie' },
);
