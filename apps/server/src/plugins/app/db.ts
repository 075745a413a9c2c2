import fp from 'fastify-plugin';
import { openDb } from '../../db/database.ts';
import type { Db } from '../../db/database.ts';
import type { App } from '../../typebox.ts';
import type { AppPluginOptions } from './options.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** The database: the injected one (tests, main, which migrate it), else opened from DATABASE_URL and closed with the app. */
export default fp(
  (app: App, { config, deps }: AppPluginOptions, done: (err?: Error) => void) => {
    const db = deps.db ?? openDb(config.databaseUrl);
    app.decorate('db', db);
    if (!deps.db) app.addHook('onClose', async () => db.close());
    done();
  },
  { name: 'db' },
);
