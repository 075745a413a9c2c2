import proxy from '@fastify/http-proxy';
import type { Config } from '../config.ts';
import type { App } from '../typebox.ts';

/** `ws://host:port/path` → upstream `http://host:port` and rewrite prefix `/path`. */
function split(url: string): { upstream: string; rewritePrefix: string } {
  const u = new URL(url);
  const protocol = u.protocol === 'wss:' || u.protocol === 'https:' ? 'https:' : 'http:';
  return { upstream: `${protocol}//${u.host}`, rewritePrefix: u.pathname === '' ? '/' : u.pathname };
}

/**
 * One origin for the browser: the XMPP websocket (`/xmpp-websocket`, subprotocol `xmpp`) passes through.
 * Janus (`/janus`, `/janus-http`) is not proxied blindly: web/janusGate.ts checks every request.
 */
export async function registerProxies(app: App, config: Config): Promise<void> {
  const xmpp = split(config.ejabberdWsUrl);
  await app.register(proxy, { prefix: '/xmpp-websocket', upstream: xmpp.upstream, rewritePrefix: xmpp.rewritePrefix, websocket: true });
}
