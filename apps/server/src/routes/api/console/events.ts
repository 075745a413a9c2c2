import { errors } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { SESSION_COOKIE, consoleUserOf, hashSessionId } from '../../../plugins/app/auth.ts';
import { viewerOf } from '../../../services/callVisibility.ts';
import { openConsoleEvents } from '../../../services/consoleEvents.ts';

/**
 * Sent last on each stream when this server drains (plugins/external/drain.ts): the browser's EventSource
 * reconnects after `retry` ms, through nginx, to another instance (docs/operations.md "Scaling").
 */
export const CLOSING_EVENT = 'retry: 500\nevent: closing\ndata: {}\n\n';

/** The console's server-sent events (services/consoleEvents.ts says what a user is sent). */
export default routes({ access: 'console' }, (app, services) => {
  /** Open event streams, ended when the server drains or closes; the argument says whether it drains. */
  const streams = new Set<(draining: boolean) => void>();
  app.addHook('preClose', (done) => {
    for (const end of streams) end(false);
    done();
  });
  app.drain.onBegin(() => {
    for (const end of streams) end(true);
  });

  app.get(
    '/events',
    {
      schema: {
        tags: ['console'],
        summary: 'Server-sent events: `event: callOpened` (data: OpenCall JSON) for calls in your assignments; heartbeat every 15 s',
        security: [{ consoleSession: [] }],
        produces: ['text/event-stream'],
        response: { 401: errors(401)[401] },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const sessionHash = hashSessionId(services, request.cookies[SESSION_COOKIE] ?? '');
      const viewer = await viewerOf(services, user);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // the stream's end when this server drains: a last `closing` event, then the end (hoisted: close() may call it)
      function endStream(draining: boolean) {
        if (draining && !res.writableEnded) res.write(CLOSING_EVENT);
        opened.end();
      }
      const opened = openConsoleEvents(services, viewer, {
        sessionHash,
        write: (chunk) => res.write(chunk),
        close: () => {
          streams.delete(endStream);
          res.end();
        },
        warn: (err) => request.log.warn({ err }, 'console events heartbeat failed'),
      });
      streams.add(endStream);
      request.raw.on('close', opened.end);
      // the first bytes say the stream is open: by then round robin counts an agent as present
      await opened.present;
      res.write('retry: 3000\n: connected\n\n');
    },
  );
});
