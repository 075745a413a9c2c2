/**
 * The guest app's first-load JavaScript, gzip: the entry script of apps/guest/dist/index.html and every
 * module it preloads (its static imports). Lazy chunks (screens, the i18n Arabic catalogue, the call
 * engine with StanzaJS and janus.js) are listed apart and must not be in the first load.
 *
 *   npm run build -w @lobby/guest && node bench/guest-bundle.ts
 *
 * Budget: ≤ 110 kB gzip (docs/performance.md "Guest app first load"). Exits 1 when over budget or when
 * StanzaJS / janus.js are reachable from the first load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 110 * 1024;
const dist = path.resolve(process.env.GUEST_DIST ?? path.join(import.meta.dirname, '../apps/guest/dist'));
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const first = new Set<string>();
for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) {
  if (match[1]) first.add(match[1].replace(/^\//, ''));
}
const gz = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

let total = 0;
console.log('first load (gzip):');
for (const file of first) {
  const size = gz(file);
  total += size;
  console.log(`  ${kb(size).padStart(9)}  ${file}`);
}
const lazy = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.js') && !first.has(`assets/${f}`))
  .map((f) => ({ f, size: gz(`assets/${f}`) }))
  .sort((a, b) => b.size - a.size);
console.log('largest lazy chunks (gzip):');
for (const { f, size } of lazy.slice(0, 6)) console.log(`  ${kb(size).padStart(9)}  assets/${f}`);
// the engine's heavy libraries by their chunk names and by a string each one carries
const heavyInFirst = [...first].filter((file) => /stanza|janus/i.test(file) || /Janus WebRTC|urn:xmpp:jingle/.test(fs.readFileSync(path.join(dist, file), 'utf8')));
console.log(`guest first-load JS: ${kb(total)} gzip (budget ${kb(BUDGET)}) ${total <= BUDGET ? 'OK' : 'OVER BUDGET'}`);
if (total > BUDGET || heavyInFirst.length) {
  if (heavyInFirst.length) console.log(`StanzaJS/janus.js in the first load: ${heavyInFirst.join(', ')}`);
  process.exit(1);
}
