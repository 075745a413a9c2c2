import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { repoRoot } from '../config.ts';
import { resolveCompany } from '../services/guests.ts';
import type { Services } from '../services/index.ts';
import type { App } from '../typebox.ts';
// `schema.hide` is @fastify/swagger's (registered by plugins/external/swagger.ts)
import type {} from '@fastify/swagger';

/**
 * The website widget (docs/widget.md):
 * - `GET /widget.js`: the loader a company pastes into its website (apps/widget, built into one file);
 * - `GET /api/widget/config`: what the loader needs (name, colours, language), readable cross-origin only by
 *   the websites of the company's `widgetOrigins` (CORS answers that one origin, never `*`); any other
 *   website reads a 403 that names its origin and nothing of the company, so the loader can say why;
 * - the widget's call page (`?service=widget&origin=<website>`) carries `frame-ancestors 'self' <website>`
 *   when the company lists that website, else the global `'self'`: the header names only the website
 *   asking, never the company's whole list.
 */
function isExactOrigin(value: string): boolean {
  // host names, IPv4 and bracketed IPv6 only: the URL parser alone lets ';' and ',' through
  if (!/^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

export function registerWidget(app: App, services: Services): void {
  const dist = path.resolve(repoRoot, process.env.LOBBY_WIDGET_DIST ?? 'apps/widget/dist');
  const file = path.join(dist, 'widget.js');

  /** The website that asks to frame this page (`origin=` of the widget's URL) when the company lists it. */
  const framingWebsite = async (request: FastifyRequest): Promise<string | null> => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const website = query.get('origin');
    if (query.get('service') !== 'widget' || !website || !isExactOrigin(website)) return null;
    const company = await resolveCompany(services, request);
    // only an exact origin reaches the header: nothing else (a ';' in a stored value) can add a CSP directive
    return company?.settings.widgetOrigins.includes(website) ? website : null;
  };

  app.get('/widget.js', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const body = await fs.promises.readFile(file).catch(() => null);
    // a script tag on another website is a cross-origin "no-cors" load: helmet's CORP same-origin would block it
    reply.header('cross-origin-resource-policy', 'cross-origin');
    if (!body) return reply.code(503).type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(`console.error(${JSON.stringify(`Lobby widget is not built: ${file} is missing`)});\n`);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  });

  app.get(
    '/api/widget/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['widget'],
        summary: "The widget loader's settings; readable cross-origin only by the company's widgetOrigins",
        response: {
          200: Type.Object({
            data: Type.Object({
              allowed: Type.Boolean(),
              companyId: Type.Integer(),
              name: Type.String(),
              language: Type.String(),
              backgroundColor: Type.String(),
              textColor: Type.String(),
            }),
          }),
          403: Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() }),
          404: Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      const company = await resolveCompany(services, request);
      if (!company) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'no company for this host' });
      const origin = request.headers.origin;
      reply.header('vary', 'Origin').header('cache-control', 'no-store');
      if (typeof origin !== 'string' || !company.settings.widgetOrigins.includes(origin)) {
        // The refusal is readable by the website asking (its own origin, not '*'), so the loader can name
        // the cause instead of the browser's bare CORS error; it says nothing of the company.
        if (typeof origin === 'string' && isExactOrigin(origin))
          reply.header('access-control-allow-origin', origin).header('cross-origin-resource-policy', 'cross-origin');
        return reply.code(403).send({
          statusCode: 403,
          error: 'Forbidden',
          message: `${typeof origin === 'string' ? origin : 'a page without an Origin header'} is not in the company’s widget origins (widgetOrigins)`,
        });
      }
      reply.header('access-control-allow-origin', origin).header('cross-origin-resource-policy', 'cross-origin');
      const s = company.settings;
      return {
        data: {
          allowed: true,
          companyId: company.id,
          name: company.name,
          language: s.language,
          backgroundColor: s.categoryBackgroundColor || s.backgroundColor,
          textColor: s.categoryTextColor || s.textColor,
        },
      };
    },
  );

  // The guest app's pages: '/', '/index.html', '/appointment/*' (the SPA's HTML, not its assets).
  const isGuestPage = (url: string) => {
    const p = url.split('?')[0] ?? '';
    return p === '/' || p === '/index.html' || p.startsWith('/appointment/');
  };
  const widenForWebsites = async (request: FastifyRequest, reply: FastifyReply, csp: string) => {
    const website = await framingWebsite(request).catch(() => null);
    if (website) {
      reply.header('content-security-policy', csp.replace(/frame-ancestors [^;]*/, `frame-ancestors 'self' ${website}`));
      // frame-ancestors decides; X-Frame-Options SAMEORIGIN would contradict it in old browsers
      reply.raw.removeHeader('x-frame-options');
      reply.removeHeader('x-frame-options');
    }
    // Opened by the widget in a new window: the page must keep its opener to talk to the website.
    if (new URLSearchParams(request.url.split('?')[1] ?? '').get('service') === 'widget') {
      reply.header('cross-origin-opener-policy', 'unsafe-none');
    }
  };
  // a callback hook: every answer passes here, and only the guest's pages need the wait
  app.addHook('onSend', (request, reply, payload, done) => {
    const csp = request.method === 'GET' && isGuestPage(request.url) ? reply.getHeader('content-security-policy') : undefined;
    if (typeof csp !== 'string') return done(null, payload);
    widenForWebsites(request, reply, csp).then(() => done(null, payload), done);
  });
}
