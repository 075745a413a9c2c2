/**
 * What waiting guests cost ejabberd and the Lobby server while nothing happens (docs/performance.md "Idle
 * cost of waiting guests"): each process's CPU over a window (utime + stime from /proc, % of one core),
 * ejabberd's HTTP API calls per second over a window (its log at info for that window only: mod_http_api
 * logs each call as "API call"; the stack runs at warning), and whether a guest's rooms still exist.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

export function pidOf(runDir: string, name: 'server' | 'ejabberd'): number | null {
  const file = name === 'ejabberd' ? path.join(runDir, 'ejabberd', 'ejabberd.pid') : path.join(runDir, 'pids', `${name}.pid`);
  try {
    return Number(fs.readFileSync(file, 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

function cpuTicks(pid: number): number | null {
  try {
    // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** % of one core each process used over `seconds` of wall time. */
export async function cpuPercent(pids: Record<string, number | null>, seconds: number): Promise<Record<string, number | null>> {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? cpuTicks(pid) : null]));
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const wall = (performance.now() - t0) / 1000;
  return Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => {
      const [a, b] = [before[k], pid ? cpuTicks(pid) : null];
      return [k, a == null || b == null ? null : Math.round(((b - a) / TICKS_PER_SECOND / wall) * 1000) / 10];
    }),
  );
}

/** ejabberdctl of the stack in `runDir` (infra/lib.sh lobby_ejctl) */
function ejctl(root: string, runDir: string, ...args: string[]): void {
  execFileSync('bash', ['-c', '. scripts/lib/env.sh >/dev/null && . infra/lib.sh && lobby_ejctl "$@"', 'ejctl', ...args], {
    cwd: root,
    env: { ...process.env, LOBBY_RUN_DIR: runDir },
    stdio: 'ignore',
  });
}

/** ejabberd's HTTP API calls per second over `seconds`: its log at info meanwhile, then back at warning. */
export async function apiCallsPerSecond(root: string, runDir: string, logFile: string, seconds: number): Promise<number | null> {
  try {
    const start = fs.statSync(logFile).size;
    ejctl(root, runDir, 'set_loglevel', 'info');
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    ejctl(root, runDir, 'set_loglevel', 'warning');
    const wall = (performance.now() - t0) / 1000;
    const fd = fs.openSync(logFile, 'r');
    const length = fs.statSync(logFile).size - start;
    const buffer = Buffer.alloc(Math.max(0, length));
    fs.readSync(fd, buffer, 0, buffer.length, start);
    fs.closeSync(fd);
    const calls = buffer.toString('utf8').split('\n').filter((line) => line.includes('API call')).length;
    return Math.round((calls / wall) * 10) / 10;
  } catch {
    return null;
  }
}

/** How many of `rooms` (JIDs) ejabberd still has (get_room_options answers a room's options, {} for a room it does not have). */
export async function roomsStillThere(apiUrl: string, rooms: string[]): Promise<number> {
  let there = 0;
  for (const jid of rooms) {
    const [name, service] = jid.split('@');
    const res = await fetch(`${apiUrl}/get_room_options`, { method: 'POST', body: JSON.stringify({ name, service }) });
    const body = (await res.json().catch(() => null)) as unknown;
    if (res.ok && body !== null && typeof body === 'object' && Object.keys(body).length > 0) there++;
  }
  return there;
}
