/**
 * bench/api: POST /api/call-report/add (token check, ownership, blocked and quota checks, insert, event) at
 * 50 connections for 10 s, against a bare Fastify route answering the same shape, in one run. Prints both
 * req/s and p99, and the ratio. Goal (docs/performance.md): Lobby ≥ 25 % of bare, p99 ≤ 20 ms on SQLite.
 *
 *   node bench/api/run.ts [seconds=10] [connections=50]       (DATABASE_URL=postgres://… for PostgreSQL)
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));

const child = spawn(process.execPath, [path.join(here, 'server.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
const first = await new Promise<string>((resolve, reject) => {
  readline.createInterface({ input: child.stdout }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});
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
  const bare = await run(info.bare);
  const lobby = await run(info.lobby);
  const row = (name: string, r: Awaited<ReturnType<typeof autocannon>>) =>
    `${name.padEnd(6)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(4)} ms   2xx ${r['2xx']}  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(`POST /api/call-report/add, ${connections} connections, ${seconds} s, ${info.dialect}`);
  console.log(row('bare', bare));
  console.log(row('lobby', lobby));
  const ratio = lobby.requests.average / bare.requests.average;
  console.log(`ratio  ${(ratio * 100).toFixed(1)} % of bare (goal ≥ 25 %), Lobby p99 ${lobby.latency.p99} ms (goal ≤ 20 ms)`);
  process.exitCode = lobby.non2xx > 0 || lobby.errors > 0 ? 1 : 0;
} finally {
  child.kill('SIGTERM');
}
