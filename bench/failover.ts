/**
 * Failover between server instances (docs/operations.md "Scaling", "What each failure costs"): one
 * instance is killed (SIGKILL, a crash) or drained (SIGTERM, the baseline) while consoles' event streams
 * and API traffic go through nginx's shared door. Rounds alternate kill and drain, instance 2 then 1,
 * each followed by the instance's restart (scripts/lib/stack.sh) and its return to nginx's rotation (after
 * fail_timeout, 10 s); the streams are then opened again so that nginx spreads them over both.
 *
 * Per round: how long until every stream the stopped instance held is open again on the other instance
 * (a console reconnecting at once; a browser also waits the `retry` the server gave: 3 s, or 500 ms after
 * a drain's `closing` event), and what the API traffic saw meanwhile: answers of 500 or more, and
 * requests that got no answer (GET /api/company/details and a guest's POST /api/guest/register, in turn).
 *
 *   LOBBY_INSTANCES=2 DATABASE_URL=postgres://… ./scripts/start --detach
 *   ./scripts/bench failover.ts [rounds=4] [streams=8]
 *
 * Needs DEMO_AGENT_PASSWORD (./scripts/bench reads the stack's secrets.env) and the stack's scripts.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { promisify } from 'node:util';
import { percentile } from './lib/consoleStream.ts';

const run = promisify(execFile);
const rounds = Number(process.argv[2] ?? 4);
const streamCount = Number(process.argv[3] ?? 8);
const base = new URL(process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080');

const stack = (script: string) => run('bash', ['-c', `. scripts/lib/stack.sh >/dev/null && ${script}`], { env: process.env, timeout: 120_000 });

async function login(): Promise<string> {
  const response = await fetch(new URL('/api/console/login', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'agent@demo.lobby', password: process.env.DEMO_AGENT_PASSWORD ?? '' }),
  });
  if (!response.ok) throw new Error(`login: ${response.status} (DEMO_AGENT_PASSWORD)`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** A console's event stream that opens again at once whenever it ends, noting which instance holds it. */
function keptStream(cookie: string) {
  const state = { instance: '', openedAt: 0, closed: false, req: null as http.ClientRequest | null };
  let generation = 0;
  const open = () => {
    if (state.closed) return;
    const mine = ++generation;
    // what happens to an older request (ended on purpose, or its close after an error) is no longer news
    const current = () => mine === generation && !state.closed;
    const retry = () => {
      if (!current()) return;
      state.instance = '';
      setTimeout(() => current() && open(), 50);
    };
    const req = http.get({ host: base.hostname, port: base.port, path: '/api/console/events', headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        retry();
        return;
      }
      if (!current()) return;
      state.instance = String(res.headers['x-lobby-instance'] ?? '');
      state.openedAt = performance.now();
      res.on('data', () => undefined);
      res.on('close', () => {
        if (!current()) return;
        state.instance = '';
        open();
      });
    });
    req.on('error', retry);
    state.req = req;
  };
  open();
  return {
    state,
    /** ends this stream and opens another at once, on whichever instance nginx picks */
    reopen() {
      const old = state.req;
      state.instance = '';
      open();
      old?.destroy();
    },
    close() {
      state.closed = true;
      state.req?.destroy();
    },
  };
}

/**
 * GETs and guests' registrations through the shared door, one at a time, about 100 a second, until
 * stopped: how many got 5xx or no answer, and from when to when (ms since `t0`) they did.
 */
function apiTraffic() {
  const counts = { requests: 0, fiveXx: 0, noAnswer: 0, firstBad: NaN, lastBad: NaN, what: [] as string[] };
  const bad = (what: string) => {
    counts.what.push(what);
    const at = performance.now();
    if (Number.isNaN(counts.firstBad)) counts.firstBad = at;
    counts.lastBad = at;
  };
  let running = true;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      await new Promise((r) => setTimeout(r, 10));
      counts.requests += 1;
      const method = n % 2 === 1 ? 'POST /api/guest/register' : 'GET /api/company/details';
      try {
        const response =
          n % 2 === 1
            ? await fetch(new URL('/api/guest/register', base), {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ guestId: randomUUID().replaceAll('-', ''), companyId: 18 }),
              })
            : await fetch(new URL('/api/company/details?companyId=18', base));
        await response.arrayBuffer();
        if (response.status >= 500) {
          counts.fiveXx += 1;
          bad(`${response.status} ${method}`);
        }
      } catch {
        counts.noAnswer += 1;
        bad(`no answer ${method}`);
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return counts;
    },
  };
}

const cookie = await login();
const streams = Array.from({ length: streamCount }, () => keptStream(cookie));
const until = async (check: () => boolean, ms: number) => {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
};
await until(() => streams.every((s) => s.state.instance !== ''), 10_000);

type Result = { ms: number[]; fiveXx: number; noAnswer: number; requests: number; held: number; badMs: number; what: string[] };
const results: Record<'kill' | 'drain', Result> = {
  kill: { ms: [], fiveXx: 0, noAnswer: 0, requests: 0, held: 0, badMs: 0, what: [] },
  drain: { ms: [], fiveXx: 0, noAnswer: 0, requests: 0, held: 0, badMs: 0, what: [] },
};

/** nginx's shared door answers from both instances again (a restarted one is back in its rotation). */
async function bothInRotation(): Promise<void> {
  const started = performance.now();
  for (;;) {
    const seen = new Set<string | null>();
    for (let k = 0; k < 6; k++) seen.add((await fetch(new URL('/api/health', base))).headers.get('x-lobby-instance'));
    if (seen.has('1') && seen.has('2')) return;
    if (performance.now() - started > 60_000) throw new Error('nginx does not send to both instances');
    await new Promise((r) => setTimeout(r, 500));
  }
}
try {
  for (let r = 0; r < rounds * 2; r++) {
    const how = r % 2 === 0 ? 'kill' : 'drain';
    const i = Math.floor(r / 2) % 2 === 0 ? 2 : 1;
    const name = i === 1 ? 'server' : `server-${i}`;
    await bothInRotation();
    // the streams spread over both instances again (nginx's turn), so the stopped one holds some
    for (const s of streams) {
      s.reopen();
      await until(() => s.state.instance !== '', 10_000);
    }
    const held = streams.filter((s) => s.state.instance === String(i));
    const traffic = apiTraffic();
    await new Promise((r) => setTimeout(r, 500));
    const t0 = performance.now();
    const signal = how === 'kill' ? 'KILL' : 'TERM';
    await stack(`pid=$(lobby_pid ${name}) && kill -${signal} "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done; rm -f "$(lobby_pidfile ${name})"`);
    // each stream the instance held, open again on another instance
    const back = await Promise.all(
      held.map(async (s) => ((await until(() => s.state.instance !== '' && s.state.instance !== String(i), 30_000)) ? s.state.openedAt - t0 : NaN)),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const counts = await traffic.stop();
    const result = results[how];
    result.ms.push(...back);
    result.held += held.length;
    result.fiveXx += counts.fiveXx;
    result.noAnswer += counts.noAnswer;
    result.requests += counts.requests;
    result.what.push(...counts.what);
    if (!Number.isNaN(counts.firstBad)) result.badMs = Math.max(result.badMs, counts.lastBad - counts.firstBad);
    await stack('start_server');
  }
} finally {
  for (const s of streams) s.close();
}

console.log(`${rounds} rounds of each, ${streamCount} console streams through the shared door, API traffic meanwhile`);
console.log('| stop | streams moved | stream open again: p50 (ms) | max (ms) | API requests | 5xx | no answer | longest stretch of errors (ms) |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [how, r] of Object.entries(results)) {
  const ms = r.ms.filter((x) => !Number.isNaN(x));
  console.log(`| ${how === 'kill' ? 'SIGKILL' : 'SIGTERM (drain)'} | ${ms.length} of ${r.held} | ${percentile(ms, 50).toFixed(0)} | ${Math.max(...ms).toFixed(0)} | ${r.requests} | ${r.fiveXx} | ${r.noAnswer} | ${r.badMs.toFixed(0)} |`);
}
for (const [how, r] of Object.entries(results)) {
  const seen = new Map<string, number>();
  for (const w of r.what) seen.set(w, (seen.get(w) ?? 0) + 1);
  if (seen.size > 0) console.log(`${how}: ${[...seen].map(([w, n]) => `${n}× ${w}`).join(', ')}`);
}
