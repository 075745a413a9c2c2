import fp from 'fastify-plugin';
import type { App } from '../../typebox.ts';
import type { AppPluginOptions } from '../app/options.ts';

/** How often the drain looks whether the requests in flight are done. */
const POLL_MS = 50;

/**
 * Graceful drain of one server among several behind nginx (docs/operations.md "Scaling"). `begin()`
 * (main.ts, on SIGTERM):
 *
 * 1. stops taking connections (the listener closes: nginx's next connect is refused, and nginx sends the
 *    request, whatever its method, to another instance, as it was never sent here);
 * 2. answers a GET or HEAD that still comes on a kept-alive connection 503 (nginx's proxy_next_upstream
 *    passes an idempotent request on a 503 to another instance), and every other request as usual but
 *    with `Connection: close`, so that nginx keeps no connection to this server;
 * 3. tells its listeners (the console's event streams: routes/api/console/events.ts) to end, so that
 *    the consoles reconnect, through nginx, to another instance;
 * 4. resolves once no request has been in flight for two polls in a row, or after `drainSeconds`
 *    (false then): main.ts closes the app and exits.
 *
 * Every response also names the instance that made it (`x-lobby-instance`), set on the raw response so
 * that a hijacked one (an event stream) carries it too.
 */
export interface Drain {
  readonly draining: boolean;
  /** called once when the drain begins */
  onBegin(listener: () => void): void;
  /** drains; true when every request in flight ended before the deadline */
  begin(): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

export default fp(
  (app: App, opts: AppPluginOptions, next: () => void) => {
    const { instance, drainSeconds } = opts.config;
    let draining = false;
    let inFlight = 0;
    const listeners: (() => void)[] = [];

    app.addHook('onRequest', (request, reply, done) => {
      const res = reply.raw;
      res.setHeader('x-lobby-instance', instance);
      inFlight += 1;
      res.once('close', () => {
        inFlight -= 1;
      });
      if (draining) {
        res.setHeader('connection', 'close');
        if (request.method === 'GET' || request.method === 'HEAD') {
          // the error shape of every route (http/errors.ts), not the route's own 503 schema (/api/health's)
          void reply
            .code(503)
            .header('retry-after', '1')
            .type('application/json; charset=utf-8')
            .serializer(JSON.stringify)
            .send({ statusCode: 503, error: 'Service Unavailable', message: `server: instance ${instance} is draining; ask another instance` });
          return;
        }
      }
      done();
    });
    // a request that was in flight when the drain began: its connection is not kept either
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (draining) void reply.header('connection', 'close');
      done(null, payload);
    });

    const quiet = async (deadline: number): Promise<boolean> => {
      let idlePolls = 0;
      while (Date.now() < deadline) {
        idlePolls = inFlight === 0 ? idlePolls + 1 : 0;
        if (idlePolls >= 2) return true;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      return false;
    };

    app.decorate('drain', {
      get draining() {
        return draining;
      },
      onBegin(listener: () => void) {
        listeners.push(listener);
      },
      async begin() {
        if (draining) return quiet(Date.now() + drainSeconds * 1000);
        draining = true;
        const deadline = Date.now() + drainSeconds * 1000;
        // No new connection; Node also closes the kept-alive ones that are idle now.
        if (app.server.listening) app.server.close();
        for (const listener of listeners) listener();
        return quiet(deadline);
      },
    } satisfies Drain);
    next();
  },
  { name: 'drain' },
);
