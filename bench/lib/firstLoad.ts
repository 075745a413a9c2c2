/**
 * The guest app's first-load JavaScript, gzip level 9: the entry script of dist/index.html and every
 * module it preloads (its static imports); every other chunk is lazy. Shared by bench/guest-bundle.ts
 * and bench/guest-page.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FirstLoad {
  /** gzip bytes of the first load */
  total: number;
  first: Array<{ file: string; size: number }>;
  lazy: Array<{ file: string; size: number }>;
  /** first-load files that carry a library that must load lazily (StanzaJS, janus.js, the Sentry SDK) */
  heavyInFirst: string[];
}

/** The default build of the guest app. */
export const GUEST_DIST = path.resolve(import.meta.dirname, '../../apps/guest/dist');

export const gzipSize = (bytes: Buffer | string): number => gzipSync(bytes, { level: 9 }).length;

/** Libraries that must never be in the first load, each by its chunk's name and by a string it carries. */
const HEAVY = {
  names: /stanza|janus|sentry/i,
  contents: /Janus WebRTC|urn:xmpp:jingle|sentry\.javascript\.browser|__SENTRY__/,
};

export function firstLoad(dist: string = GUEST_DIST): FirstLoad {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const match of html.matchAll(
    /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g,
  )) {
    if (match[1]) files.add(match[1].replace(/^\//, ''));
  }
  const size = (file: string) => gzipSize(fs.readFileSync(path.join(dist, file)));
  const first = [...files].map((file) => ({ file, size: size(file) }));
  const lazy = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') && !files.has(`assets/${f}`))
    .map((f) => ({ file: `assets/${f}`, size: size(`assets/${f}`) }))
    .sort((a, b) => b.size - a.size);
  const heavyInFirst = [...files].filter(
    (file) => HEAVY.names.test(file) || HEAVY.contents.test(fs.readFileSync(path.join(dist, file), 'utf8')),
  );
  return { total: first.reduce((sum, f) => sum + f.size, 0), first, lazy, heavyInFirst };
}

export const kb = (n: number): string => `${(n / 1024).toFixed(1)} kB`;
