/**
 * bench/api: POST /api/call-report/add (token check, ownership, blocked and quota checks, insert, event) at
 * 50 connections for 10 s, against a bare Fastify route answering the same shape, in one run. Prints both
 * req/s, p99 and the servers' CPU per request, and the ratios. Goal (issue 16, docs/performance.md): Lobby
 * ≥ 40 % of bare, p99 ≤ 20 ms on SQLite.
 *
 *   node bench/api/run.ts [seconds=10] [connections=50]       (DATABASE_URL=postgres://… for PostgreSQL)
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));

// BENCH_PROFILE=dir writes the servers' CPU profile there (node --cpu-prof), to see where a request's time goes
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const child = spawn(process.execPath, [...profile, path.join(here, 'server.ts')], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
const lines = readline.createInterface({ input: child.stdout });
const nextLine = () =>
  new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
const first = await nextLine();
/** the servers' process CPU time so far (µs) */
const cpuMicros = async () => {
  const answer = nextLine();
  child.stdin.write('cpu\n');
  return (JSON.parse(await answer) as { cpuMicros: number }).cpuMicros;
};
const info = JSON.parse(first) as { lobby: string; bare: string; guests: Array<{ username: string; token: string }>; dialect: string };

let seq = 0;
const run = (url: string, duration = seconds) =>
  autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/call-report/add',
        // A new call id per request, from the guests in turn: every request is a real new call.
        setupRequest: (req) => {
          seq += 1;
          const g = info.guests[seq % info.guests.length] as { username: string; token: string };
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${g.token}` },
            body: JSON.stringify({ call_id: `${g.username}--b${seq}${crypto.randomBytes(3).toString('hex')}`, company: 18, source: 'site' }),
          };
        },
      },
    ],
  });

try {
  // Warm both (JIT, SQLite page cache), then measure bare first and Lobby second.
  await run(info.bare, 2);
  await run(info.lobby, 2);
  const measured = async (url: string) => {
    const before = await cpuMicros();
    const result = await run(url);
    const after = await cpuMicros();
    return { result, cpuPerRequest: (after - before) / Math.max(1, result.requests.total) };
  };
  const bare = await measured(info.bare);
  const lobby = await measured(info.lobby);
  const row = (name: string, { result: r, cpuPerRequest }: typeof bare) =>
    `${name.padEnd(6)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(4)} ms   CPU ${cpuPerRequest.toFixed(0).padStart(4)} µs/request   2xx ${r['2xx']}  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(`POST /api/call-report/add, ${connections} connections, ${seconds} s, ${info.dialect}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(row('bare', bare));
  console.log(row('lobby', lobby));
  const ratio = lobby.result.requests.average / bare.result.requests.average;
  const cpuRatio = bare.cpuPerRequest / lobby.cpuPerRequest;
  console.log(`ratio  ${(ratio * 100).toFixed(1)} % of bare req/s (goal ≥ 40 %), Lobby p99 ${lobby.result.latency.p99} ms (goal ≤ 20 ms)`);
  // On a machine shared with other work the req/s ratio and the p99 measure the scheduler as much as the
  // route; the CPU each request costs the server's process does not (its ratio is the req/s ratio an
  // otherwise idle core would give, the load generator aside).
  console.log(`CPU    bare ${bare.cpuPerRequest.toFixed(0)} µs, Lobby ${lobby.cpuPerRequest.toFixed(0)} µs per request: ${(cpuRatio * 100).toFixed(1)} % of bare`);
  process.exitCode = lobby.result.non2xx > 0 || lobby.result.errors > 0 ? 1 : 0;
} finally {
  child.kill('SIGTERM');
}
