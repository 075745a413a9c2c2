/**
 * The guest app's first-load JavaScript, gzip: the entry script of apps/guest/dist/index.html and every
 * module it preloads (its static imports). Lazy chunks (screens, the i18n Arabic catalogue, the call
 * engine with StanzaJS and janus.js, the Sentry SDK) are listed apart and must not be in the first load.
 *
 *   npm run build -w @lobby/guest && node bench/guest-bundle.ts
 *
 * Budget: ≤ 90 kB gzip (docs/performance.md "Guest app first load"). Exits 1 when over budget
 * or when StanzaJS, janus.js or the Sentry SDK are reachable from the first load.
 *
 * `--libraries`: only the second rule, a property of the build rather than a budget (scripts/test's build
 * stage runs it, so an import that drags a call library into the first screen fails the suite).
 */
import { firstLoad, kb } from './lib/firstLoad.ts';

const BUDGET = 90 * 1024;
const result = firstLoad(process.env.GUEST_DIST);

console.log('first load (gzip):');
for (const { file, size } of result.first) console.log(`  ${kb(size).padStart(9)}  ${file}`);
console.log('largest lazy chunks (gzip):');
for (const { file, size } of result.lazy.slice(0, 6)) console.log(`  ${kb(size).padStart(9)}  ${file}`);
console.log(
  `guest first-load JS: ${kb(result.total)} gzip (budget ${kb(BUDGET)}) ${result.total <= BUDGET ? 'OK' : 'OVER BUDGET'}`,
);
if (result.heavyInFirst.length)
  console.log(`StanzaJS/janus.js/Sentry in the first load: ${result.heavyInFirst.join(', ')}`);
const librariesOnly = process.argv.includes('--libraries');
if (result.heavyInFirst.length || (!librariesOnly && result.total > BUDGET)) process.exit(1);
