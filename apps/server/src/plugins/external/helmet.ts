import helmet from '@fastify/helmet';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { App } from '../../typebox.ts';

/**
 * Security headers. The CSP allows what a call page needs: same-origin websockets (XMPP, Janus), blob: and
 * mediastream: media, data:/blob: images (plus https: images for company logos and backgrounds).
 */
export async function registerHelmet(app: App): Promise<void> {
  const sameOriginWs = (req: IncomingMessage) => {
    const host = (req as IncomingMessage & Partial<FastifyRequest>).headers.host ?? '';
    return /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `ws://${host} wss://${host}` : "'self'";
  };
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", sameOriginWs],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // Cameras and microphones are used by the page itself.
    crossOriginEmbedderPolicy: false,
  });
}
