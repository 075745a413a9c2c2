/**
 * The busiest hour: N guests wait at once (issue 16). A load generator that is not the product's engine
 * (StanzaJS used directly, and the HTTP API called by hand) registers N guests, opens their calls
 * (call-report/add), connects each to ejabberd, joins its room and announces `OpenCall`, while
 *   - an XMPP-only agent follows the server's `callOpened` events, joins each guest's room and times the
 *     presence fan-out (guest sent → agent received), and
 *   - one real console (Chromium, the demo agent) lists the queue; we time until it lists everyone.
 * Then churn: every 10 s, 10 % of the guests leave and as many new ones arrive, for CHURN_SECONDS; an
 * arrival the agent never sees, or a console that ends with the wrong count, is a lost presence.
 * Reports per N: failures, time to list everyone (console and XMPP agent), fan-out p50/p95/max, memory
 * per guest of the Lobby server, ejabberd and Janus, and churn losses. Prints one JSON line per N.
 *
 *   ./scripts/start --detach   (LOBBY_REGISTER_RATE_LIMIT high enough for N registrations a minute)
 *   set -a; . .run/secrets.env; set +a
 *   node bench/waiting-guests.ts 100,250 [--churn-seconds 120] [--no-console]
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), LOBBY_RUN_DIR (default .run; for the PID files).
 * Bounded: every wait has a time limit, every guest is disconnected and its call ended at the end.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import * as XMPP from 'stanza';
import { attribute } from 'stanza/jxt/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const BASE = process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080';
const WS = `${BASE.replace(/^http/, 'ws')}/xmpp-websocket`;
const RUN_DIR = process.env.LOBBY_RUN_DIR ?? path.join(root, '.run');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'churn-seconds': { type: 'string', default: '120' },
    'no-console': { type: 'boolean', default: false },
  },
});
const SIZES = (positionals[0] ?? '100')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const CHURN_SECONDS = Number(opts['churn-seconds']);
const CONCURRENCY = 25;
const PASSWORD = process.env.DEMO_AGENT_PASSWORD;
if (!PASSWORD) throw new Error('DEMO_AGENT_PASSWORD is not set (source .run/secrets.env)');

const NS = 'urn:lobby:presence:0';
const NOT_PLAIN = [
  'SCRAM-SHA-256-PLUS',
  'SCRAM-SHA-256',
  'SCRAM-SHA-1-PLUS',
  'SCRAM-SHA-1',
  'DIGEST-MD5',
  'X-OAUTH2',
  'OAUTHBEARER',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};

async function api<T>(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: T; raw: Response }> {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: T = undefined as T;
  try {
    data = (JSON.parse(text) as { data: T }).data;
  } catch {
    /* not JSON */
  }
  return { status: res.status, data, raw: res };
}

function xmppClient(jid: string, password: string): XMPP.Agent {
  const client = XMPP.createClient({
    jid,
    password,
    resource: 'bench',
    transports: { websocket: WS, bosh: false },
    autoReconnect: false,
    useStreamManagement: false,
  });
  for (const m of NOT_PLAIN) client.sasl.disable(m);
  client.stanzas.define({
    element: 'lobby',
    namespace: NS,
    path: 'presence.lobby',
    fields: { userType: attribute('userType'), appointmentID: attribute('appointmentID') },
  });
  client.setMaxListeners(0);
  return client;
}

function connect(client: XMPP.Agent, ms = 15000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('connect timeout')), ms);
    client.once('session:started', () => (clearTimeout(timer), resolve()));
    client.once('auth:failed', () => (clearTimeout(timer), reject(new Error('auth failed'))));
    client.once('disconnected', () => (clearTimeout(timer), reject(new Error('disconnected'))));
    client.connect();
  });
}

interface Guest {
  username: string;
  callId: string;
  room: string;
  token: string;
  client: XMPP.Agent;
  sentAt: number;
}

/** One guest, the way the guest app does it: register, open the call, connect, join, OpenCall. */
async function arrive(): Promise<Guest> {
  const reg = await api<{
    jabberusername: string;
    username: string;
    credential: string;
    access_token: string;
    guestRooms: { room: string }[];
  }>('POST', '/api/guest/register', { guestId: crypto.randomUUID().replaceAll('-', ''), companyId: 18 });
  if (reg.status !== 201) throw new Error(`register ${reg.status}`);
  const { username, credential, access_token: token, guestRooms } = reg.data;
  const room = guestRooms[0]?.room;
  if (!room) throw new Error('no guest room');
  const callId = `${username}--${crypto.randomBytes(4).toString('hex')}`;
  const add = await api<{ status: string }>(
    'POST',
    '/api/call-report/add',
    { call_id: callId, company: 18, source: 'site' },
    { authorization: `Bearer ${token}` },
  );
  if (add.status >= 300 || add.data?.status !== 'ok')
    throw new Error(`call-report/add ${add.status} ${add.data?.status}`);
  const client = xmppClient(reg.data.jabberusername, credential);
  await connect(client);
  const joined = await Promise.race([client.joinRoom(room, username), sleep(15000).then(() => null)]);
  if (!joined || joined.type === 'error') throw new Error('room join failed');
  const sentAt = performance.now();
  client.sendPresence({
    to: `${room}/${username}`,
    status: `OpenCall||${callId}`,
    lobby: { userType: 'guest', appointmentID: '' },
  });
  return { username, callId, room, token, client, sentAt };
}

async function leave(g: Guest): Promise<void> {
  await api(
    'PUT',
    '/api/call-report/update-timestamp',
    { call_id: g.callId, guest_exit_timestamp: true, call_ended_timestamp: true },
    { authorization: `Bearer ${g.token}` },
  ).catch(() => undefined);
  g.client.disconnect();
}

async function inBatches<T>(n: number, make: () => Promise<T>): Promise<{ ok: T[]; failed: string[] }> {
  const ok: T[] = [];
  const failed: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next++;
        await make().then(
          (v) => ok.push(v),
          (e: unknown) => failed.push(e instanceof Error ? e.message : String(e)),
        );
      }
    }),
  );
  return { ok, failed };
}

/** The XMPP-only agent: joins each room the server announces and records when each OpenCall arrives. */
async function startAgent(): Promise<{
  seen: Map<string, number>;
  joinFailures: () => number;
  close: () => void;
}> {
  const login = await api('POST', '/api/console/login', { email: 'agent@demo.lobby', password: PASSWORD });
  const cookie = login.raw.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const token = await api<{ jid: string; credential: string }>(
    'POST',
    '/api/console/xmpp-token',
    {},
    { cookie },
  );
  const client = xmppClient(token.data.jid, token.data.credential);
  await connect(client);
  const seen = new Map<string, number>();
  let joinFailures = 0;
  client.on('presence', (p) => {
    const [status, , callId] = (p.status ?? '').split('|');
    if (status === 'OpenCall' && callId && !seen.has(callId)) seen.set(callId, performance.now());
  });
  const joined = new Set<string>();
  const join = (room: string) => {
    if (joined.has(room)) return;
    joined.add(room);
    client.joinRoom(room, `bench-${crypto.randomBytes(3).toString('hex')}`).then(
      (r) => void (r.type === 'error' && joinFailures++),
      () => void joinFailures++,
    );
  };
  const events = new AbortController();
  void (async () => {
    const res = await fetch(`${BASE}/api/console/events`, { headers: { cookie }, signal: events.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.includes('event: callOpened')) continue;
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) join((JSON.parse(data.slice(6)) as { room: string }).room);
      }
    }
  })().catch(() => undefined);
  return { seen, joinFailures: () => joinFailures, close: () => (events.abort(), client.disconnect()) };
}

async function startConsole(): Promise<{ count: () => Promise<number>; close: () => Promise<void> } | null> {
  if (opts['no-console']) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-bench-console-'));
  const context: BrowserContext = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL: BASE,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/console/');
  await page.getByTestId('login-email').fill('agent@demo.lobby');
  await page.getByTestId('login-password').fill(PASSWORD!);
  await page.getByTestId('login-submit').click();
  await page.locator('[data-screen="workspace"]').waitFor({ timeout: 30000 });
  return {
    count: () => page.evaluate(() => document.querySelectorAll('[data-testid="queue-item"]').length),
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

for (const n of SIZES) {
  const memBefore = { server: rssKb('server'), ejabberd: rssKb('ejabberd'), janus: rssKb('janus') };
  const agent = await startAgent();
  const console_ = await startConsole();
  const t0 = performance.now();
  const { ok: guests, failed } = await inBatches(n, arrive);
  const arrivedMs = Math.round(performance.now() - t0);
  const limit = 60_000 + n * 100;
  const xmppAll = await untilAll(
    () => guests.filter((g) => agent.seen.has(g.callId)).length,
    guests.length,
    limit,
  );
  const consoleAll = console_ ? await untilAll(console_.count, guests.length, limit) : null;
  const fanout = guests
    .filter((g) => agent.seen.has(g.callId))
    .map((g) => agent.seen.get(g.callId)! - g.sentAt);
  const memAfter = { server: rssKb('server'), ejabberd: rssKb('ejabberd'), janus: rssKb('janus') };
  const perGuest = (k: keyof typeof memAfter) =>
    memAfter[k] !== null && memBefore[k] !== null && guests.length
      ? Math.round(((memAfter[k] - memBefore[k]) / guests.length) * 10) / 10
      : null;

  // churn: 10 % leave and as many arrive every 10 s
  let churnArrivals: Guest[] = [];
  let churnFailed = 0;
  const rounds = Math.floor(CHURN_SECONDS / 10);
  for (let r = 0; r < rounds; r++) {
    const k = Math.max(1, Math.round(guests.length * 0.1));
    const leaving = guests.splice(0, k);
    await Promise.all(leaving.map(leave));
    const arrived = await inBatches(k, arrive);
    churnFailed += arrived.failed.length;
    guests.push(...arrived.ok);
    churnArrivals.push(...arrived.ok);
    await sleep(10_000);
  }
  const lostArrivals = churnArrivals.filter((g) => !agent.seen.has(g.callId)).length;
  const consoleEnd = console_ && rounds > 0 ? await untilAll(console_.count, guests.length, 30_000) : null;
  const consoleFinal = console_ ? await console_.count() : null;

  console.log(
    JSON.stringify({
      date: new Date().toISOString(),
      load: os.loadavg().map((l) => Math.round(l * 100) / 100),
      n,
      failed: failed.length,
      failures: [...new Set(failed)].slice(0, 3),
      agentJoinFailures: agent.joinFailures(),
      arrivedMs,
      xmppAgentListsAllMs: xmppAll.ms,
      xmppAgentListed: xmppAll.reached,
      consoleListsAllMs: consoleAll?.ms ?? null,
      consoleListed: consoleAll?.reached ?? null,
      fanoutMs: { p50: pct(fanout, 50), p95: pct(fanout, 95), max: pct(fanout, 100) },
      rssKbPerGuest: { server: perGuest('server'), ejabberd: perGuest('ejabberd'), janus: perGuest('janus') },
      churn: rounds
        ? {
            rounds,
            arrivals: churnArrivals.length,
            failedArrivals: churnFailed,
            lostArrivals,
            consoleExpected: guests.length,
            consoleFinal,
            consoleCaughtUpMs: consoleEnd?.ms ?? null,
          }
        : null,
    }),
  );
  churnArrivals = [];
  await Promise.all(guests.map(leave));
  agent.close();
  await console_?.close();
  await sleep(2000);
}
process.exit(0);
