import path from 'node:path';
import autoload from '@fastify/autoload';
import Fastify from 'fastify';
import type { Config } from './config.ts';
import type { AppDeps, AppPluginOptions } from './plugins/app/options.ts';
// app.services (decorated by the autoloaded plugin; this import only brings its type)
import type {} from './plugins/app/services.ts';
import { AJV_OPTIONS, formatSchemaErrors } from './plugins/app/validation.ts';
import type { TypeBoxProvider } from './typebox.ts';
import type { App } from './typebox.ts';
import { createJanusRouter } from './services/media/janusRouter.ts';
import { registerJanusGate } from './web/janusGate.ts';
import { registerProxies } from './web/proxies.ts';
import { registerStatic, sendGuestNotFound, wantsPage } from './web/static.ts';
import { registerWidget } from './web/widget.ts';

export type { AppDeps } from './plugins/app/options.ts';

/**
 * The app the fastify/demo way: plugins/external (helmet, cookie, rate limit, swagger), then plugins/app
 * (db → repositories → services → auth → validation, ordered by their fastify-plugin dependencies), then
 * every file under routes/, its folder its URL prefix (docs/architecture.md). All three are loaded by
 * @fastify/autoload, which imports the .ts files natively (Node 24 strips the types; vitest inlines
 * autoload so its imports go through vite: vitest.config.ts).
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: AJV_OPTIONS,
    schemaErrorFormatter: formatSchemaErrors,
    // Long-lived SSE and proxied websockets must not keep the process alive on close.
    forceCloseConnections: true,
  }).withTypeProvider<TypeBoxProvider>();

  const options: AppPluginOptions = { config, deps };
  await app.register(autoload, { dir: path.join(import.meta.dirname, 'plugins/external'), options });
  await app.register(autoload, { dir: path.join(import.meta.dirname, 'plugins/app'), options });
  await app.register(autoload, {
    dir: path.join(import.meta.dirname, 'routes'),
    // index.ts is a route file like the others (autoload would otherwise skip its folder's other files)
    indexPattern: /^$/,
  });
  registerWidget(app, app.services); // /widget.js, /api/widget/config, frame-ancestors from widgetOrigins

  // Unknown /api paths (and anything that is not a page request) answer JSON 404; a person's browser
  // asking for an unknown page gets the guest app, whose not-found screen says what to do (404 status).
  app.setNotFoundHandler((request, reply) => {
    if (deps.web !== false && wantsPage(request)) return sendGuestNotFound(reply, config);
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `${request.method} ${request.url.split('?')[0]}: no such route` });
  });

  if (deps.web !== false) {
    await registerProxies(app, config);
    const { janusTokens, janusNodes, mediaRooms } = app.services;
    // each room's requests to its Janus node (docs/operations.md "Scaling")
    const route = createJanusRouter(janusNodes, mediaRooms, config.janusAdminSecret);
    registerJanusGate(app, config, janusTokens, mediaRooms, undefined, undefined, route);
    await registerStatic(app, config, app.services);
  }
  return app;
}
