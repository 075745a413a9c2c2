import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { App } from '../../typebox.ts';
import type { Config } from '../../config.ts';
import type { AppPluginOptions } from '../app/options.ts';

/**
 * Security headers. Every answer carries the ones that protect a response whatever reads it:
 * `X-Content-Type-Options: nosniff` (a browser never reads it as another type than it says),
 * `Cross-Origin-Resource-Policy: same-origin` (another site cannot load it as an image, script…), and HSTS
 * over HTTPS. An answer that is not JSON (a page, a script, a file, an empty 204…) carries as well the
 * headers that only a document obeys: the CSP, X-Frame-Options, Cross-Origin-Opener-Policy,
 * Origin-Agent-Cluster, Referrer-Policy and helmet's legacy ones. A JSON answer (what the API answers to
 * `fetch`, errors included) is never a document: fetch ignores them, and a browser opening it as a page
 * shows it as text (nosniff), runs nothing, loads nothing, so a CSP has nothing to restrict
 * (docs/security.md, "Security headers"). Leaving them off JSON is ≈ 10 header lines (≈ 700 bytes) less on
 * every API answer.
 *
 * The CSP allows what a call page needs: same-origin websockets (XMPP, Janus), blob: and mediastream:
 * media, data:/blob: images (plus https: images for company logos and backgrounds), and the compiling of
 * WebAssembly ('wasm-unsafe-eval': RNNoise's noise suppression; never 'unsafe-eval', docs/security.md).
 *
 * helmet's headers are static with these options: its middleware runs once, at start-up, into a list that
 * each answer sets. (@fastify/helmet rebuilt the middleware — parsing and validating every directive — on
 * each request: ≈ 8 % of the CPU of POST /api/call-report/add in bench/api; running helmet's chain of eleven
 * middlewares per request was ≈ 3 % more.) Only the websocket source, which names the request's host, is
 * computed per request (and kept per host).
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
  const before = "default-src 'self'; base-uri 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob: mediastream:; font-src 'self' data:; connect-src 'self' ";
  // the error-reporting server (LOBBY_SENTRY_DSN), when one is configured, is the only other origin
  const reporting = config.sentryDsn ? ` ${new URL(config.sentryDsn).origin}` : '';
  const after = `${reporting}; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'self'; form-action 'self'`;
  const headers = helmetHeaders(applyHeaders);
  // the policy per Host header seen (a few in practice; the cap guards against a client making up hosts)
  const policies = new Map<string | undefined, string>();
  const policyFor = (host: string | undefined) => {
    let policy = policies.get(host);
    if (policy === undefined) {
      policy = before + sameOriginWs(host) + after;
      if (policies.size >= 100) policies.clear();
      policies.set(host, policy);
    }
    return policy;
  };
  const forEveryAnswer = headers.filter(([name]) => EVERY_ANSWER.has(name.toLowerCase()));
  const forDocuments = headers.filter(([name]) => !EVERY_ANSWER.has(name.toLowerCase()));
  if (forEveryAnswer.length !== EVERY_ANSWER.size) throw new Error('helmet no longer sets nosniff and CORP');
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    // request.protocol believes X-Forwarded-Proto only from TRUST_PROXY's addresses
    if (request.protocol === 'https') res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    for (const [name, value] of forEveryAnswer) res.setHeader(name, value);
    done();
  });
  // Once the answer's type is known: anything but JSON may be shown as a document. (A hijacked answer — the
  // console's event stream — skips onSend: text/event-stream is read by EventSource, never shown.)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isJson(reply.getHeader('content-type'))) {
      const res = reply.raw;
      res.setHeader('content-security-policy', policyFor(request.headers.host));
      for (const [name, value] of forDocuments) res.setHeader(name, value);
    }
    done(null, payload);
  });
}

/** The headers that mean something on any answer, a document or not (the rest only to a document). */
const EVERY_ANSWER = new Set(['x-content-type-options', 'cross-origin-resource-policy']);

/** application/json, with or without parameters: what the API's answers and errors are. */
function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/json\s*(;|$)/i.test(contentType);
}

/**
 * The headers helmet's middleware sets, from one run against a stand-in response. Fails at start-up if
 * helmet ever does anything else (removes a header other than X-Powered-By, which Fastify never sets, or
 * depends on the request), rather than serving without it.
 */
function helmetHeaders(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const res = {
    setHeader(name: string, value: unknown) {
      headers.push([name, String(value)]);
    },
    removeHeader(name: string) {
      if (name.toLowerCase() !== 'x-powered-by') throw new Error(`helmet removes ${name}`);
    },
  };
  let called = false;
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err as Error;
    called = true;
  });
  if (!called || headers.length === 0) throw new Error('helmet did not set its headers synchronously');
  return headers;
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
