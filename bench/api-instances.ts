/**
 * The API through nginx with one instance serving and with two (docs/operations.md "Scaling"), on a
 * stack with LOBBY_INSTANCES=2 and LOBBY_FRONT_DOORS=1 on PostgreSQL (the tests' `scale` stage set-up):
 * the front door of instance 1 (PORT+5; instance 2 is only its backup and stays idle) against nginx's
 * shared door (PORT, both instances in turn), in alternating runs of the same mix: a guest's company
 * details (GET), a call opened (POST /api/call-report/add) and its timestamps (PUT update-timestamp), from
 * 40 registered guests in turn. Per run: req/s, p99, and CPU per request summed over both server
 * processes and every PostgreSQL process (the postmaster, its backends, and those that ended: /proc).
 *
 *   ./scripts/bench api-instances.ts [seconds=10] [connections=20] [rounds=2]
 *
 * On one machine the instances share its cores: two instances there show what coordinating costs, not
 * what a second machine would add.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';

const run = promisify(execFile);
const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 20);
const rounds = Number(process.argv[4] ?? 2);
const port = Number(process.env.PORT ?? 8080);
const doors = { 'one instance (front door of instance 1)': `http://127.0.0.1:${port + 5}`, 'two instances (shared door)': `http://127.0.0.1:${port}` };

const stack = async (script: string) => (await run('bash', ['-c', `. scripts/lib/stack.sh >/dev/null && ${script}`], { env: process.env })).stdout.trim();
const serverPids = [Number(await stack('lobby_pid server')), Number(await stack('lobby_pid server-2'))];
const postmaster = Number(fs.readFileSync(path.join(process.env.LOBBY_RUN_DIR ?? '.run', 'pg', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** fields of /proc/PID/stat after the command name: [state, ppid, …]; utime is index 11 */
const stat = (pid: number): string[] | null => {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};
/** CPU seconds (user + system) of the servers and of PostgreSQL, its ended children included */
function cpuSeconds(): { servers: number; postgres: number } {
  const ticks = 100; // getconf CLK_TCK on Linux
  const own = (f: string[]) => Number(f[11]) + Number(f[12]);
  let servers = 0;
  for (const pid of serverPids) servers += own(stat(pid) ?? ['0']);
  const pm = stat(postmaster);
  let postgres = pm ? own(pm) + Number(pm[13]) + Number(pm[14]) : 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = stat(Number(entry));
    if (f && Number(f[1]) === postmaster) postgres += own(f);
  }
  return { servers: servers / ticks, postgres: postgres / ticks };
}

const json = { 'content-type': 'application/json' };
/** the company's settings through its admin's API (DEMO_ADMIN_PASSWORD: ./scripts/bench reads secrets.env) */
async function companySettings(settings: Record<string, unknown>): Promise<void> {
  const base = doors['two instances (shared door)'];
  const login = await fetch(`${base}/api/console/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: 'admin@demo.lobby', password: process.env.DEMO_ADMIN_PASSWORD ?? '' }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} (DEMO_ADMIN_PASSWORD)`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const response = await fetch(`${base}/api/admin/company`, { method: 'PUT', headers: { ...json, cookie }, body: JSON.stringify(settings) });
  if (!response.ok) throw new Error(`PUT /api/admin/company: ${response.status} ${await response.text()}`);
}
// every call comes from this one address, and the calls of earlier runs are still open: no cap while measuring
await companySettings({ maxOpenCallsPerAddress: 0 });
const guests: Array<{ username: string; token: string }> = [];
for (let i = 0; i < 40; i++) {
  const response = await fetch(`${doors['two instances (shared door)']}/api/guest/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ guestId: randomUUID().replaceAll('-', ''), companyId: 18 }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: { username: string; access_token: string } };
  guests.push({ username: data.username, token: data.access_token });
}

let seq = 0;
const mix: LoadRequest[] = [
  { method: 'GET', path: '/api/company/details?companyId=18' },
  {
    method: 'POST',
    path: '/api/call-report/add',
    setupRequest: (req, context) => {
      const g = guests[++seq % guests.length]!;
      context.token = g.token;
      context.callId = `${g.username}--i${seq}`;
      return { ...req, headers: { ...json, authorization: `Bearer ${g.token}` }, body: JSON.stringify({ call_id: context.callId, company: 18, source: 'site' }) };
    },
  },
  {
    method: 'PUT',
    path: '/api/call-report/update-timestamp',
    setupRequest: (req, context) => ({
      ...req,
      headers: { ...json, authorization: `Bearer ${String(context.token)}` },
      body: JSON.stringify({ call_id: context.callId, call_initiated_timestamp: true }),
    }),
  },
];

const totals = new Map<string, { requests: number; seconds: number; p99: number[]; non2xx: number; servers: number; postgres: number }>();
for (const url of Object.values(doors)) await autocannon({ url, connections, duration: 2, requests: mix }); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [name, url] of Object.entries(doors)) {
    const before = cpuSeconds();
    const started = performance.now();
    const result = await autocannon({ url, connections, duration: seconds, requests: mix });
    const wall = (performance.now() - started) / 1000;
    const after = cpuSeconds();
    const t = totals.get(name) ?? { requests: 0, seconds: 0, p99: [], non2xx: 0, servers: 0, postgres: 0 };
    t.requests += result.requests.total;
    t.seconds += wall;
    t.p99.push(result.latency.p99);
    t.non2xx += result.non2xx + result.errors;
    t.servers += after.servers - before.servers;
    t.postgres += after.postgres - before.postgres;
    totals.set(name, t);
  }
}
await companySettings({ maxOpenCallsPerAddress: 50 });
console.log(`${rounds} alternating runs of ${seconds} s each, ${connections} connections, mix: GET details, POST add, PUT update-timestamp`);
console.log('| set-up | req/s | p99 (ms), per run | not 2xx | CPU ms per request: servers | PostgreSQL | both |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name, t] of totals) {
  const per = (s: number) => ((s * 1000) / t.requests).toFixed(2);
  console.log(`| ${name} | ${(t.requests / t.seconds).toFixed(0)} | ${t.p99.join(', ')} | ${t.non2xx} | ${per(t.servers)} | ${per(t.postgres)} | ${per(t.servers + t.postgres)} |`);
}
