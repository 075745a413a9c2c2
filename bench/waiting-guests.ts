/**
 * The busiest hour: N guests wait at once. A load generator that is not the product's engine
 * (e2e/support/lightGuest.ts: the HTTP API called by hand and a bare XMPP client over the websocket)
 * registers N guests, opens their calls (call-report/add), connects each to ejabberd, joins its room and
 * announces `OpenCall`, while
 *   - an XMPP-only agent (StanzaJS used directly, in a worker thread of its own: bench/lib/xmppAgent.ts)
 *     follows the server's `callOpened` events, joins each guest's room and times the presence fan-out
 *     (guest sent → agent received): the console's baseline, and
 *   - one real console (Chromium, the demo agent) lists the queue: we time until it counts everyone,
 *     how long after its OpenCall each guest is counted, its long tasks, and a real click's latency
 *     (Event Timing, as INP measures it) on a queue row while the guests arrive and churn.
 * Then churn: every 10 s, 10 % of the guests leave and as many new ones arrive, for CHURN_SECONDS; an
 * arrival the agent never sees, or a guest the console does not list at the end (its whole list is read
 * by scrolling through it: the queue is drawn virtually), is a lost presence.
 * Reports per N: failures, time to list everyone (console and XMPP agent), fan-out p50/p95/max, memory
 * per guest of the Lobby server, ejabberd and Janus (RSS before/after ÷ N) and ejabberd's per room, churn
 * losses, and the console's figures against the agent's of the same run (`consoleVsAgent`, console /
 * agent), and the console page's JS heap before and after its whole list is read with the wheel
 * (`consoleHeapMb`, CDP; live after a forced collection, against the goal of 150 MB). The idle cost
 * (`idle`): with everyone waiting and nothing happening, the CPU of ejabberd and the server over
 * IDLE_SECONDS against the same before the first guest (its baseline), and ejabberd's API calls per second
 * (bench/lib/idleCost.ts). After everyone has left: how long until their rooms are gone
 * (`roomsGoneAfterLeavingS`, a sample of 20 guests' rooms; --no-room-wait skips it). Prints one JSON line
 * per N on stdout and a one-line summary with the ratios on stderr.
 *
 *   LOBBY_REGISTER_RATE_LIMIT=100000 ./scripts/start --detach   (all guests register from one address)
 *   set -a; . .run/secrets.env; set +a
 *   node bench/waiting-guests.ts 100,500 [--churn-seconds 120] [--no-console] [--in-flight 25] [--idle-seconds 10] [--no-room-wait]
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), LOBBY_RUN_DIR (default .run; for the PID files),
 * LOBBY_LOG_DIR (default $LOBBY_RUN_DIR/logs), EJABBERD_API_URL (default http://127.0.0.1:5281/api).
 * Bounded: every wait has a time limit, every guest is disconnected and its call ended at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Worker } from 'node:worker_threads';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser.ts';
import { BASE_URL as BASE } from '../e2e/support/api.ts';
import type { AgentMessage, AgentWorkerData } from './lib/xmppAgent.ts';
import { lightGuestLeaves, lightGuestsTry, registerRetries, type LightGuest } from '../e2e/support/lightGuest.ts';
import { listedCallIds, queueCount, type QueueScreen } from '../e2e/support/queueList.ts';
import { apiCallsPerSecond, cpuPercent, pidOf, roomsStillThere } from './lib/idleCost.ts';
import { adminApi } from '../e2e/tests/routing-support.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const RUN_DIR = process.env.LOBBY_RUN_DIR ?? path.join(root, '.run');
const EJABBERD_LOG = path.join(process.env.LOBBY_LOG_DIR ?? path.join(RUN_DIR, 'logs'), 'ejabberd', 'ejabberd.log');
const EJABBERD_API = process.env.EJABBERD_API_URL ?? 'http://127.0.0.1:5281/api';
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'churn-seconds': { type: 'string', default: '120' },
    'no-console': { type: 'boolean', default: false },
    // registrations in flight at once (the load generator's pace)
    'in-flight': { type: 'string', default: '25' },
    // a CPU profile of the console during churn (CDP Profiler), written to <file>-<N>.cpuprofile
    'profile-churn': { type: 'string' },
    // the idle windows (CPU, then API calls) with everyone waiting, and the baseline's before the first guest
    'idle-seconds': { type: 'string', default: '10' },
    'no-room-wait': { type: 'boolean', default: false },
  },
});
const SIZES = (positionals[0] ?? '100')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const CHURN_SECONDS = Number(opts['churn-seconds']);
const IDLE_SECONDS = Number(opts['idle-seconds']);
const CONCURRENCY = Number(opts['in-flight']);
const PASSWORD = process.env.DEMO_AGENT_PASSWORD;
if (!PASSWORD) throw new Error('DEMO_AGENT_PASSWORD is not set (source .run/secrets.env)');
const AGENT = { email: 'agent@demo.lobby', password: PASSWORD };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};
/** epoch ms of a performance.now() reading in this process (the console's page reports epoch ms) */
const epoch = (t: number) => performance.timeOrigin + t;

type Guest = LightGuest;
const arriving = (n: number) => lightGuestsTry(n, CONCURRENCY);
/** Guests leave `CONCURRENCY` at a time: 10,000 at once would open as many sockets beside their websockets. */
async function leaveAll(leaving: Guest[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, leaving.length) }, async () => {
      while (next < leaving.length) await lightGuestLeaves(leaving[next++]!);
    }),
  );
}

/**
 * The XMPP-only agent (bench/lib/xmppAgent.ts) in its own thread: `seen` maps each call id to when its
 * OpenCall arrived (performance.now() of this thread, converted from the worker's epoch ms).
 */
async function startAgent(): Promise<{
  seen: Map<string, number>;
  joinFailures: () => number;
  close: () => void;
}> {
  const worker = new Worker(new URL('./lib/xmppAgent.ts', import.meta.url), {
    workerData: { base: BASE, email: AGENT.email, password: AGENT.password } satisfies AgentWorkerData,
  });
  const seen = new Map<string, number>();
  let joinFailures = 0;
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: AgentMessage) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'error') reject(new Error(`XMPP agent: ${m.message}`));
      else {
        joinFailures = m.joinFailures;
        for (const [callId, at] of m.calls) seen.set(callId, at - performance.timeOrigin);
      }
    });
  });
  return { seen, joinFailures: () => joinFailures, close: () => void worker.terminate() };
}

/** MB = 10⁶ bytes; `usedMb` as found, `liveMb` after `HeapProfiler.collectGarbage` (what is still reachable) */
interface ConsoleHeap {
  usedMb: number;
  liveMb: number;
}
/** the goal for 10,000 waiting guests (docs/performance.md "Waiting guests"): the console's live heap */
const HEAP_BUDGET_MB = 150;

interface BenchConsole {
  /** the queue's count as the console shows it */
  count: () => Promise<number>;
  /** [epoch ms, count] at every change of the count since the page opened */
  countChanges: () => Promise<Array<[number, number]>>;
  /** long tasks of the console's main thread since the last call, ms */
  longTasks: () => Promise<number[]>;
  /** a real click on a queue row's details toggle: its Event Timing duration (input → next paint), ms */
  clickLatency: () => Promise<number | null>;
  /** every call id the queue lists, read with the mouse wheel over the queue a screen at a time */
  listed: () => Promise<{ ids: Set<string>; screens: QueueScreen[] }>;
  /** GET /api/console/calls/{callId} (a queue row's details) the console sent since it opened */
  detailRequests: () => number;
  /** the page's JS heap in use (CDP `Runtime.getHeapUsage`), MB: as found, and live after a forced collection */
  heap: () => Promise<ConsoleHeap>;
  /** starts the CDP CPU profiler of the console's page; the returned stop writes the profile to `file` */
  profile: () => Promise<(file: string) => Promise<void>>;
  close: () => Promise<void>;
}

async function startConsole(): Promise<BenchConsole | null> {
  if (opts['no-console']) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-bench-console-'));
  const context: BrowserContext = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    // the README's stack shows automated browsers the bot screen; the console does not check, but the
    // same switch as bench/call-setup.ts keeps the bench's browser an ordinary one
    args: [...CHROMIUM_ARGS, '--disable-blink-features=AutomationControlled'],
    viewport: { width: 1280, height: 800 },
    baseURL: BASE,
  });
  const page: Page = context.pages()[0] ?? (await context.newPage());
  let detailRequests = 0;
  page.on('request', (r) => {
    if (/^\/api\/console\/calls\/[^/]+$/.test(new URL(r.url()).pathname)) detailRequests++;
  });
  await context.addInitScript(() => {
    const w = window as unknown as { __bench: { counts: Array<[number, number]>; longTasks: number[]; events: Array<[string, number]> } };
    w.__bench = { counts: [], longTasks: [], events: [] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.events.push([e.name, e.duration]);
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    const watch = () => {
      const el = document.querySelector('[data-testid="queue-count"] [aria-hidden="true"]');
      if (!el) return void setTimeout(watch, 50);
      const note = () => w.__bench.counts.push([performance.timeOrigin + performance.now(), Number(el.textContent)]);
      note();
      new MutationObserver(note).observe(el, { characterData: true, childList: true, subtree: true });
    };
    document.addEventListener('DOMContentLoaded', watch);
  });
  await page.goto('/console/');
  await page.getByTestId('login-email').fill(AGENT.email);
  await page.getByTestId('login-password').fill(AGENT.password);
  await page.getByTestId('login-submit').click();
  await page.locator('[data-screen="workspace"]').waitFor({ timeout: 30000 });
  await page.locator('[data-testid="queue-panel"][data-live="true"]').waitFor({ timeout: 30000 });
  type W = { __bench: { counts: Array<[number, number]>; longTasks: number[]; events: Array<[string, number]> } };
  return {
    count: () => queueCount(page),
    countChanges: () => page.evaluate(() => (window as unknown as W).__bench.counts),
    longTasks: () => page.evaluate(() => (window as unknown as W).__bench.longTasks.splice(0)),
    async clickLatency() {
      const toggle = page.getByTestId('queue-details-toggle').first();
      if (!(await toggle.count())) return null;
      await page.evaluate(() => void (window as unknown as W).__bench.events.splice(0));
      await toggle.click({ timeout: 10_000 });
      // Event Timing reports a click once its next frame is painted
      for (let i = 0; i < 50; i++) {
        const click = await page.evaluate(() => (window as unknown as W).__bench.events.find(([name]) => name === 'click'));
        if (click) return click[1];
        await sleep(20);
      }
      return 16; // under Event Timing's smallest threshold (16 ms): not reported
    },
    async listed() {
      const screens: QueueScreen[] = [];
      const ids = await listedCallIds(page, (screen) => screens.push(screen));
      return { ids, screens };
    },
    detailRequests: () => detailRequests,
    async heap() {
      const cdp = await context.newCDPSession(page);
      const mb = async () => round1((await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6);
      const usedMb = await mb();
      // V8's full collection, as DevTools' "Collect garbage" button: what it leaves is live
      await cdp.send('HeapProfiler.collectGarbage');
      const liveMb = await mb();
      await cdp.detach();
      return { usedMb, liveMb };
    },
    async profile() {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      return async (file) => {
        const { profile } = await cdp.send('Profiler.stop');
        fs.writeFileSync(file, JSON.stringify(profile));
        await cdp.detach();
      };
    },
    close: async () => {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function rssKb(name: string): number | null {
  const file =
    name === 'ejabberd'
      ? path.join(RUN_DIR, 'ejabberd', 'ejabberd.pid')
      : path.join(RUN_DIR, 'pids', `${name}.pid`);
  try {
    const pid = fs.readFileSync(file, 'utf8').trim();
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  } catch {
    return null;
  }
}

async function untilAll(
  what: () => Promise<number> | number,
  target: number,
  limitMs: number,
): Promise<{ ms: number | null; reached: number }> {
  const t0 = performance.now();
  let reached = 0;
  while (performance.now() - t0 < limitMs) {
    reached = await what();
    if (reached >= target) return { ms: Math.round(performance.now() - t0), reached };
    await sleep(100);
  }
  return { ms: null, reached };
}

/**
 * How long after its OpenCall each guest was counted by the console: the k-th guest to announce is
 * counted once the console's count first reaches `base + k` (guests only arrive in this phase).
 */
function consoleFanout(guests: Guest[], changes: Array<[number, number]>, base: number): number[] {
  const sent = guests.map((g) => epoch(g.sentAt)).sort((a, b) => a - b);
  const out: number[] = [];
  let c = 0;
  sent.forEach((at, k) => {
    while (c < changes.length && changes[c]![1] < base + k + 1) c++;
    if (c < changes.length) out.push(Math.max(0, changes[c]![0] - at));
  });
  return out;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : round1(a / Math.max(b, 1)));

/** The console's figures beside the XMPP-only agent's of the same guests (ms, and console / agent). */
function comparison(consoleAll: number | null, agentAll: number | null, consoleListing: number[], fanout: number[]) {
  const row = (c: number | null, a: number | null) => ({ console: c === null ? null : Math.round(c), agent: a === null ? null : Math.round(a), ratio: ratio(c, a) });
  return {
    listsAllAfterLastArrivalMs: row(consoleAll, agentAll),
    perGuestP50Ms: row(pct(consoleListing, 50), pct(fanout, 50)),
    perGuestP95Ms: row(pct(consoleListing, 95), pct(fanout, 95)),
    perGuestMaxMs: row(pct(consoleListing, 100), pct(fanout, 100)),
  };
}

/** a queue budget (`budgets` in the JSON line) was missed at some N: the bench exits 1 */
let overBudget = false;

/** CPU of ejabberd and the server (% of a core) over IDLE_SECONDS, then ejabberd's API calls per second over as long. */
async function idleCost() {
  const cpuPct = await cpuPercent({ ejabberd: pidOf(RUN_DIR, 'ejabberd'), server: pidOf(RUN_DIR, 'server') }, IDLE_SECONDS);
  const apiCallsPerS = await apiCallsPerSecond(root, RUN_DIR, EJABBERD_LOG, IDLE_SECONDS);
  return { cpuPct, apiCallsPerS };
}

/** Seconds until none of `rooms` exists in ejabberd any more (null: some still there after `limitS`). */
async function roomsGone(rooms: string[], limitS: number): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitS * 1000) {
    if ((await roomsStillThere(EJABBERD_API, rooms)) === 0) return Math.round((performance.now() - t0) / 1000);
    await sleep(5000);
  }
  return null;
}

// every generated guest calls from this machine's one address: the company's cap of open calls per address
// (docs/security.md "Open calls") is lifted for the run and put back at its end
const { maxOpenCallsPerAddress } = await adminApi<{ maxOpenCallsPerAddress: number }>('GET', '/admin/company');
await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress: 0 });
for (const n of SIZES) {
  // the baseline: the same stack before this N's guests (the server's jobs run, nobody waits)
  const idleBaseline = await idleCost();
  const memBefore = { server: rssKb('server'), ejabberd: rssKb('ejabberd'), janus: rssKb('janus') };
  const agent = await startAgent();
  const console_ = await startConsole();
  const base = (await console_?.count()) ?? 0;
  await console_?.longTasks(); // the console's own load is not the queue's work
  const t0 = performance.now();
  registerRetries.count = 0;
  const { ok: guests, failed } = await arriving(n);
  const arrivedMs = Math.round(performance.now() - t0);
  const limit = 60_000 + n * 100;
  const xmppAll = await untilAll(() => guests.filter((g) => agent.seen.has(g.callId)).length, guests.length, limit);
  const consoleAll = console_ ? await untilAll(console_.count, base + guests.length, limit) : null;
  const fanout = guests.filter((g) => agent.seen.has(g.callId)).map((g) => agent.seen.get(g.callId)! - g.sentAt);
  const changes = console_ ? await console_.countChanges() : [];
  const consoleListing = console_ ? consoleFanout(guests, changes, base) : [];
  // Lists everyone, from the last guest's OpenCall, both timed by events (not by polling): the agent's
  // receipt of the last presence, the console's count reaching everyone (its page's clock, epoch ms)
  const lastSent = Math.max(...guests.map((g) => g.sentAt));
  const agentAll = guests.every((g) => agent.seen.has(g.callId))
    ? Math.max(0, Math.max(...guests.map((g) => agent.seen.get(g.callId)!)) - lastSent)
    : null;
  const consoleReached = changes.find(([, c]) => c >= base + guests.length);
  const consoleAllMs = consoleReached ? Math.max(0, consoleReached[0] - epoch(lastSent)) : null;
  const rampLongTasks = (await console_?.longTasks()) ?? [];
  const memAfter = { server: rssKb('server'), ejabberd: rssKb('ejabberd'), janus: rssKb('janus') };
  const memory = Object.fromEntries(
    (['server', 'ejabberd', 'janus'] as const).map((k) => {
      const [before, after] = [memBefore[k], memAfter[k]];
      const perGuestKb = before !== null && after !== null && guests.length ? round1((after - before) / guests.length) : null;
      return [k, { beforeKb: before, afterKb: after, perGuestKb }];
    }),
  );
  const rooms = guests.reduce((sum, g) => sum + g.rooms.length, 0);
  const ejabberdDeltaKb = memBefore.ejabberd !== null && memAfter.ejabberd !== null ? memAfter.ejabberd - memBefore.ejabberd : null;
  const ejabberdPerRoomKb = ejabberdDeltaKb !== null && rooms ? round1(ejabberdDeltaKb / rooms) : null;
  // everyone waits, nothing happens: what the queue costs by itself
  const idle = { baseline: idleBaseline, waiting: await idleCost() };

  // churn: 10 % leave and as many arrive every 10 s; one real click on the queue per round
  const churnArrivals: Guest[] = [];
  const clicks: number[] = [];
  let churnFailed = 0;
  const churnFailures = new Set<string>();
  const rounds = Math.floor(CHURN_SECONDS / 10);
  const stopProfile = opts['profile-churn'] && console_ ? await console_.profile() : null;
  for (let r = 0; r < rounds; r++) {
    const roundStart = performance.now();
    const k = Math.max(1, Math.round(guests.length * 0.1));
    const leaving = guests.splice(0, k);
    await leaveAll(leaving);
    const arrived = await arriving(k);
    churnFailed += arrived.failed.length;
    for (const f of arrived.failed) if (churnFailures.size < 3) churnFailures.add(f);
    guests.push(...arrived.ok);
    churnArrivals.push(...arrived.ok);
    const click = await console_?.clickLatency();
    if (click != null) clicks.push(click);
    await sleep(Math.max(0, 10_000 - (performance.now() - roundStart)));
  }
  const churnLongTasks = (await console_?.longTasks()) ?? [];
  if (stopProfile) await stopProfile(`${opts['profile-churn']}-${n}.cpuprofile`);
  // the last round's arrivals may still be on their way (at 5,000 a round's arrivals take longer than its
  // 10 s, so no pause follows the last): an arrival counts as lost only if the agent has not seen it 10 s on
  const seenArrivals = () => churnArrivals.filter((g) => agent.seen.has(g.callId)).length;
  await untilAll(seenArrivals, churnArrivals.length, 10_000);
  const lostArrivals = churnArrivals.length - seenArrivals();
  const consoleEnd = console_ ? await untilAll(console_.count, base + guests.length, 30_000) : null;
  const requestsBeforeScroll = console_?.detailRequests() ?? null;
  const heapBeforeScroll = (await console_?.heap()) ?? null;
  const read = console_ ? await console_.listed() : null;
  const listed = read?.ids ?? null;
  // the queue's DOM while a person scrolls it: rows drawn beyond those on screen (VirtualList's overscan, 3
  // a side, is the budget), and the details asked on the way (budget: the rows that came on screen)
  const queueDom = read
    ? {
        screens: read.screens.length,
        maxDrawn: Math.max(...read.screens.map((x) => x.drawn)),
        maxBeyondOnScreen: Math.max(...read.screens.map((x) => x.drawn - x.onScreen.length)),
        detailRequestsBeforeScroll: requestsBeforeScroll,
        detailRequestsWhileScrolling: console_!.detailRequests() - requestsBeforeScroll!,
        rowsSeen: read.ids.size,
      }
    : null;
  // a click once the whole queue was scrolled through (it once took 8–10 s at 5,000: every row drawn)
  const clickAfterScroll = (await console_?.clickLatency()) ?? null;
  // taken after that click, so that its forced collection does not change the click's figure
  const heapAfterScroll = (await console_?.heap()) ?? null;
  const consoleHeapMb =
    heapBeforeScroll && heapAfterScroll ? { beforeScroll: heapBeforeScroll, afterScroll: heapAfterScroll } : null;
  const budgets = queueDom
    ? {
        overscan: queueDom.maxBeyondOnScreen <= 6,
        detailsPerRowSeen: queueDom.detailRequestsWhileScrolling <= queueDom.rowsSeen + 6,
        clickAfterScrollUnder200Ms: clickAfterScroll !== null && clickAfterScroll < 200,
        heapLiveAtMost150Mb:
          consoleHeapMb !== null &&
          Math.max(consoleHeapMb.beforeScroll.liveMb, consoleHeapMb.afterScroll.liveMb) <= HEAP_BUDGET_MB,
      }
    : null;
  const notListed = listed ? guests.filter((g) => !listed.has(g.callId)).length : null;
  const stillListed = listed ? listed.size - (guests.length - (notListed ?? 0)) - base : null;

  console.log(
    JSON.stringify({
      date: new Date().toISOString(),
      load: os.loadavg().map((l) => Math.round(l * 100) / 100),
      n,
      failed: failed.length,
      failures: [...new Set(failed)].slice(0, 3),
      // registrations answered 503 and asked again as the guest app does (a failure only after 4 tries)
      registerRetries: registerRetries.count,
      agentJoinFailures: agent.joinFailures(),
      arrivedMs,
      xmppAgentListsAllMs: xmppAll.ms,
      xmppAgentListed: xmppAll.reached,
      consoleListsAllMs: consoleAll?.ms ?? null,
      consoleListed: consoleAll ? consoleAll.reached - base : null,
      fanoutMs: { p50: pct(fanout, 50), p95: pct(fanout, 95), max: pct(fanout, 100) },
      consoleListsGuestMs: { p50: pct(consoleListing, 50), p95: pct(consoleListing, 95), max: pct(consoleListing, 100) },
      consoleLongTasks: {
        ramp: { count: rampLongTasks.length, max: pct(rampLongTasks, 100), totalMs: Math.round(rampLongTasks.reduce((a, b) => a + b, 0)) },
        churn: { count: churnLongTasks.length, max: pct(churnLongTasks, 100) },
      },
      clickMs: { p50: pct(clicks, 50), max: pct(clicks, 100) },
      clickAfterScrollMs: clickAfterScroll,
      queueDom,
      // the console page's JS heap, MB, with everyone listed: before the wheel scroll through the whole queue
      // and after it (and its click); `liveMb` after a forced collection, `usedMb` as found before it
      consoleHeapMb,
      budgets,
      // RSS before the first guest and once all are waiting, / N. The server's is not taken after a
      // garbage collection (it runs without --expose-gc or an inspector): it moves with its collector.
      memory,
      rooms,
      ejabberdPerRoomKb,
      idle,
      // the console against its baseline in the same run, the XMPP-only agent: console / agent
      consoleVsAgent: console_ ? comparison(consoleAllMs, agentAll, consoleListing, fanout) : null,
      churn: rounds
        ? {
            rounds,
            arrivals: churnArrivals.length,
            failedArrivals: churnFailed,
            failures: [...churnFailures],
            lostArrivals,
            consoleExpected: guests.length,
            consoleCaughtUpMs: consoleEnd?.ms ?? null,
            consoleNotListed: notListed,
            consoleListedGone: stillListed,
          }
        : null,
    }),
  );
  if (budgets && Object.values(budgets).includes(false)) overBudget = true;
  const c = console_ ? comparison(consoleAllMs, agentAll, consoleListing, fanout) : null;
  const kb = (k: string) => (memory[k]?.perGuestKb ?? '–') + ' kB';
  console.error(
    `N=${n}: ${failed.length} failed, ${churnFailed} churn arrivals failed, ${lostArrivals} lost; ` +
      (c
        ? `console/agent: lists all ${c.listsAllAfterLastArrivalMs.ratio}× (${c.listsAllAfterLastArrivalMs.console} / ${c.listsAllAfterLastArrivalMs.agent} ms after the last arrival), ` +
          `per guest p50 ${c.perGuestP50Ms.ratio}× (${c.perGuestP50Ms.console} / ${c.perGuestP50Ms.agent} ms), p95 ${c.perGuestP95Ms.ratio}× (${c.perGuestP95Ms.console} / ${c.perGuestP95Ms.agent} ms); `
        : `fan-out p50/p95 ${pct(fanout, 50)} / ${pct(fanout, 95)} ms; `) +
      (consoleHeapMb
        ? `console heap live ${consoleHeapMb.beforeScroll.liveMb} → ${consoleHeapMb.afterScroll.liveMb} MB across the scroll ` +
          `(${consoleHeapMb.beforeScroll.usedMb} → ${consoleHeapMb.afterScroll.usedMb} MB before collection; budget ${HEAP_BUDGET_MB}); `
        : '') +
      `RSS per guest: server ${kb('server')} (no GC), ejabberd ${kb('ejabberd')} (${ejabberdPerRoomKb} kB per room), Janus ${kb('janus')}; ` +
      `idle CPU ejabberd ${idle.waiting.cpuPct.ejabberd} % (baseline ${idle.baseline.cpuPct.ejabberd} %), server ${idle.waiting.cpuPct.server} % (baseline ${idle.baseline.cpuPct.server} %), ` +
      `ejabberd API ${idle.waiting.apiCallsPerS}/s (baseline ${idle.baseline.apiCallsPerS}/s)`,
  );
  const sample = guests.slice(0, 20).flatMap((g) => g.rooms);
  await leaveAll(guests);
  if (!opts['no-room-wait']) {
    // the guests ended their calls and closed their sessions: their rooms go after the departure grace (2 min)
    const goneS = await roomsGone(sample, 240);
    console.log(JSON.stringify({ n, roomsGoneAfterLeavingS: goneS, sampledRooms: sample.length }));
    console.error(`N=${n}: the sampled guests' ${sample.length} rooms gone ${goneS === null ? 'NOT within 240' : `within ${goneS}`} s of their leaving`);
  }
  agent.close();
  await console_?.close();
  await sleep(2000);
}
await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress });
process.exit(overBudget ? 1 : 0);
