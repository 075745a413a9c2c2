/**
 * bench/api: POST /api/call-report/add (token check, ownership, blocked and quota checks, insert, event) at
 * 50 connections for 10 s, against a bare Fastify route answering the same shape, in one run. Prints both
 * req/s, p99 and the servers' CPU per request, and the ratios. Goal (docs/performance.md): Lobby
 * ≥ 40 % of bare, p99 ≤ 20 ms on SQLite.
 *
 *   node bench/api/run.ts [seconds=10] [connections=50] [--add-only | --visit-only]   (DATABASE_URL=postgres://… for PostgreSQL)
 *
 * Then, unless --add-only, a guest's whole visit (register, add, update-timestamp, the agent's media grant, the end,
 * rating) at 50 and 200 connections against bare routes of the same shapes (--visit-only: only these, at
 * `connections` alone, e.g. to profile them). Goal: ≥ 40 % of bare, p99 ≤ 20 ms at 50 connections and
 * ≤ 100 ms at 200, on SQLite.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request as LoadRequest } from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));

// BENCH_PROFILE=dir writes the servers' CPU profile there (node --cpu-prof), to see where a request's time goes
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const child = spawn(process.execPath, [...profile, path.join(here, 'server.ts')], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
const lines = readline.createInterface({ input: child.stdout });
let exited: Error | null = null;
const waiting = new Set<(err: Error) => void>();
child.once('exit', (code) => {
  exited = new Error(`bench server exited with ${code}`);
  for (const reject of waiting) reject(exited);
});
const nextLine = () =>
  new Promise<string>((resolve, reject) => {
    if (exited) return reject(exited);
    waiting.add(reject);
    lines.once('line', (line) => {
      waiting.delete(reject);
      resolve(line);
    });
  });
const first = await nextLine();
/** the servers' process CPU time so far (µs) */
const cpuMicros = async () => {
  const answer = nextLine();
  child.stdin.write('cpu\n');
  return (JSON.parse(await answer) as { cpuMicros: number }).cpuMicros;
};
const info = JSON.parse(first) as { lobby: string; bare: string; guests: Array<{ username: string; token: string }>; agentCookie: string; dialect: string };

let seq = 0;
const json = { 'content-type': 'application/json' };
const auth = (token: unknown) => ({ ...json, authorization: `Bearer ${String(token)}` });

/** add: POST /api/call-report/add alone, a new call id per request from the registered guests in turn. */
const addOnly: LoadRequest[] = [
  {
    method: 'POST',
    path: '/api/call-report/add',
    setupRequest: (req) => {
      seq += 1;
      const g = info.guests[seq % info.guests.length] as { username: string; token: string };
      return {
        ...req,
        headers: auth(g.token),
        body: JSON.stringify({ call_id: `${g.username}--b${seq}${crypto.randomBytes(3).toString('hex')}`, company: 18, source: 'site' }),
      };
    },
  },
];

/**
 * mixed: what a guest's visit does, in order, on each connection: register, open a call, mark it
 * answered (update-timestamp, as the guest's engine does), the agent's media grant (the server's record
 * that it was answered), rate it. Each response feeds the next request.
 */
const visit: LoadRequest[] = [
  {
    method: 'POST',
    path: '/api/guest/register',
    setupRequest: (req) => ({ ...req, headers: json, body: JSON.stringify({ guestId: crypto.randomBytes(16).toString('hex') }) }),
    onResponse: (_status, body, context) => {
      const { data } = JSON.parse(body) as { data: { username: string; access_token: string } };
      context.username = data.username;
      context.token = data.access_token;
    },
  },
  {
    method: 'POST',
    path: '/api/call-report/add',
    setupRequest: (req, context) => {
      context.callId = `${String(context.username)}--m${++seq}`;
      return { ...req, headers: auth(context.token), body: JSON.stringify({ call_id: context.callId, company: 18, source: 'site' }) };
    },
    onResponse: (_status, body, context) => {
      context.report = (JSON.parse(body) as { data: { id: number } }).data.id;
    },
  },
  {
    method: 'PUT',
    path: '/api/call-report/update-timestamp',
    setupRequest: (req, context) => ({
      ...req,
      headers: auth(context.token),
      body: JSON.stringify({ call_id: context.callId, call_initiated_timestamp: true, call_answered_timestamp: true }),
    }),
  },
  {
    // the agent answers: its media grant is the server's record that the call was answered (the rating needs it)
    method: 'POST',
    setupRequest: (req, context) => ({ ...req, path: `/api/console/calls/${String(context.callId)}/media`, headers: { cookie: info.agentCookie } }),
  },
  {
    // the call ends before the rating, as a guest's does (the company caps the open calls of one address)
    method: 'PUT',
    path: '/api/call-report/update-timestamp',
    setupRequest: (req, context) => ({ ...req, headers: auth(context.token), body: JSON.stringify({ call_id: context.callId, call_ended_timestamp: true }) }),
  },
  {
    method: 'POST',
    path: '/api/rating-form/submissions',
    setupRequest: (req, context) => ({
      ...req,
      headers: auth(context.token),
      body: JSON.stringify({ guestUsername: context.username, report: context.report, form: null, answers: { score: 5 } }),
    }),
  },
];

const run = (url: string, requests: LoadRequest[], conns: number, duration = seconds) =>
  autocannon({ url, connections: conns, duration, requests });

/** Runs bare then Lobby (warmed), prints both and the ratios; false when Lobby answered anything but 2xx. */
async function compare(title: string, requests: LoadRequest[], conns: number, goal: string): Promise<boolean> {
  await run(info.bare, requests, conns, 2);
  await run(info.lobby, requests, conns, 2);
  const measured = async (url: string) => {
    const before = await cpuMicros();
    const result = await run(url, requests, conns);
    const after = await cpuMicros();
    return { result, cpuPerRequest: (after - before) / Math.max(1, result.requests.total) };
  };
  const bare = await measured(info.bare);
  const lobby = await measured(info.lobby);
  const row = (name: string, { result: r, cpuPerRequest }: typeof bare) =>
    `${name.padEnd(6)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(4)} ms   CPU ${cpuPerRequest.toFixed(0).padStart(4)} µs/request   2xx ${r['2xx']}  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(`\n${title}, ${conns} connections, ${seconds} s, ${info.dialect}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(row('bare', bare));
  console.log(row('lobby', lobby));
  const ratio = lobby.result.requests.average / bare.result.requests.average;
  const cpuRatio = bare.cpuPerRequest / lobby.cpuPerRequest;
  console.log(`ratio  ${(ratio * 100).toFixed(1)} % of bare req/s, Lobby p99 ${lobby.result.latency.p99} ms (${goal})`);
  // On a machine shared with other work the req/s ratio and the p99 measure the scheduler as much as the
  // route; the CPU each request costs the server's process does not (its ratio is the req/s ratio an
  // otherwise idle core would give, the load generator aside).
  console.log(`CPU    bare ${bare.cpuPerRequest.toFixed(0)} µs, Lobby ${lobby.cpuPerRequest.toFixed(0)} µs per request: ${(cpuRatio * 100).toFixed(1)} % of bare`);
  return lobby.result.non2xx === 0 && lobby.result.errors === 0;
}

try {
  const visitOnly = process.argv.includes('--visit-only');
  let ok = visitOnly || (await compare('POST /api/call-report/add', addOnly, connections, 'goal ≥ 40 %, p99 ≤ 20 ms'));
  if (!process.argv.includes('--add-only')) {
    for (const conns of visitOnly ? [connections] : [50, 200]) {
      const goal = `goal ≥ 40 %, p99 ≤ ${conns <= 50 ? 20 : 100} ms at ${conns <= 50 ? 50 : 200} connections`;
      ok = (await compare('mixed visit: register, add, update-timestamp, agent media grant, end, rating', visit, conns, goal)) && ok;
    }
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  child.kill('SIGTERM');
}
