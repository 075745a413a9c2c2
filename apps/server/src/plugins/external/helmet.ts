import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { App } from '../../typebox.ts';
import type { Config } from '../../config.ts';
import type { AppPluginOptions } from '../app/options.ts';

/**
 * Security headers on every answer. The CSP allows what a call page needs: same-origin websockets (XMPP,
 * Janus), blob: and mediastream: media, data:/blob: images (plus https: images for company logos and
 * backgrounds).
 *
 * helmet's middleware is built once here and applied per request. (@fastify/helmet rebuilt it — parsing
 * and validating every directive — on each request: ≈ 8 % of the CPU of POST /api/call-report/add in
 * bench/api.) Only the websocket source, which names the request's host, is computed per request.
 */
function registerHelmet(app: App, config: Config): void {
  const applyHeaders = helmet({
    // set below: helmet's CSP middleware re-reads every directive on each request because one is dynamic
    contentSecurityPolicy: false,
    // Cameras and microphones are used by the page itself.
    crossOriginEmbedderPolicy: false,
    // set below, over HTTPS only (RFC 6797 §7.2: a browser ignores it over HTTP, and it says nothing true there)
    strictTransportSecurity: false,
  });
  const before = "default-src 'self'; base-uri 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob: mediastream:; font-src 'self' data:; connect-src 'self' ";
  // the error-reporting server (LOBBY_SENTRY_DSN), when one is configured, is the only other origin
  const reporting = config.sentryDsn ? ` ${new URL(config.sentryDsn).origin}` : '';
  const after = `${reporting}; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'self'; form-action 'self'`;
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('content-security-policy', before + sameOriginWs(request.headers.host) + after);
    // request.protocol believes X-Forwarded-Proto only from TRUST_PROXY's addresses
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}

/** The page's own websockets (XMPP, Janus) are on its host; an unexpected Host header gets no ws source. */
function sameOriginWs(host: string | undefined): string {
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

export default fp(
  (app: App, opts: AppPluginOptions, done: (err?: Error) => void) => {
    registerHelmet(app, opts.config);
    done();
  },
  { name: 'helmet' },
);
