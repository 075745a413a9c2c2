import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { App } from '../typebox.ts';
import type { Services } from '../services/index.ts';
import { loadFirstScreenRenderer, registerGuestPage } from './firstScreen.ts';

function notBuilt(reply: FastifyReply, what: string, dir: string) {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`The ${what} is not built: ${path.join(dir, 'index.html')} is missing. Run \`npm run build\` and reload.\n`);
}

const hasIndex = (dir: string) => fs.existsSync(path.join(dir, 'index.html'));

/**
 * The guest app at `/` (SPA fallback for `/` and `/appointment/*`; `/` with its first screen in the page
 * when it can: web/firstScreen.ts) and the console at `/console/` (SPA fallback for any `/console/*` path
 * that is not a file). A missing dist folder answers 503 text.
 */
export async function registerStatic(app: App, config: Config, services: Services): Promise<void> {
  // Guest app.
  if (hasIndex(config.guestDist)) {
    await app.register(fastifyStatic, {
      root: config.guestDist,
      prefix: '/',
      index: ['index.html'],
      wildcard: true,
      setHeaders: (res, file) => {
        if (file.endsWith('.html')) res.header('cache-control', 'no-cache');
      },
    });
    app.get('/appointment/*', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', config.guestDist));
    registerGuestPage(app, config, services, await loadFirstScreenRenderer(config.guestServerEntry, app.log));
  } else {
    app.get('/', (_req, reply) => notBuilt(reply, 'guest app', config.guestDist));
    app.get('/appointment/*', (_req, reply) => notBuilt(reply, 'guest app', config.guestDist));
  }

  // Console, in its own scope so that its not-found handler (the SPA fallback) covers /console/* only.
  await app.register(
    async (scope) => {
      scope.get('', (_req, reply) => reply.redirect('/console/'));
      if (hasIndex(config.consoleDist)) {
        await scope.register(fastifyStatic, {
          root: config.consoleDist,
          prefix: '/',
          index: ['index.html'],
          wildcard: true,
          decorateReply: !app.hasReplyDecorator('sendFile'),
          setHeaders: (res, file) => {
            if (file.endsWith('.html')) res.header('cache-control', 'no-cache');
          },
        });
        scope.setNotFoundHandler((req, reply) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'not found' });
          return reply.header('cache-control', 'no-cache').sendFile('index.html', config.consoleDist);
        });
      } else {
        scope.get('/*', (_req, reply) => notBuilt(reply, 'console', config.consoleDist));
      }
    },
    { prefix: '/console' },
  );
}

/** A browser navigating to a page (not an API call, a script or an image): GET/HEAD outside /api that accepts HTML. */
export function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) return false;
  return String(request.headers.accept ?? '').includes('text/html');
}

/** The guest app's document with status 404: it shows its not-found screen in the company's look. */
export function sendGuestNotFound(reply: FastifyReply, config: Config): FastifyReply {
  if (!hasIndex(config.guestDist)) return notBuilt(reply, 'guest app', config.guestDist);
  return reply.code(404).header('cache-control', 'no-cache').sendFile('index.html', config.guestDist);
}
