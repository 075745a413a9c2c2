/**
 * Calls per Janus core (issue 16): N concurrent 1:1 calls through the stack's Janus, each a page of the
 * bare janus.js client (bench/pages/bare-janus.html `pair()`: two participants that publish camera and
 * microphone and subscribe to each other, as a guest and an agent do), with Chromium's fake devices.
 * For each N, after the calls settle, it samples for a window:
 *   - Janus's CPU time (from /proc/<pid>/stat: user + system), against the same window with no call;
 *   - the RTP packets the calls' peer connections sent to Janus and received from it (getStats),
 * and prints CPU % of one core per call, CPU µs per relayed packet, and the calls one core would carry
 * at that rate, beside the ≈ 50 calls per core reported for SymphonyMediaBridge (a published figure,
 * not run here). Janus's cost grows with packets, the browsers' (encoding) with calls: on this 2-core
 * machine the browsers run out first, so the per-packet cost is what carries over to a bigger machine.
 *
 *   ./scripts/start --detach && set -a && . .run/secrets.env && set +a && node bench/janus-calls.ts [1,2,4] [seconds=15]
 * Env as bench/support/bareJanus.ts; JANUS_PID (default: $LOBBY_RUN_DIR/pids/janus.pid, LOBBY_RUN_DIR=.run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { bareRoom, launchBenchBrowser, serveBare } from './support/bareJanus.ts';

const COUNTS = (process.argv[2] ?? '1,2,4').split(',').map(Number);
const WINDOW_S = Number(process.argv[3] ?? 15);
const SMB_CALLS_PER_CORE = 50;

function janusPid(): number {
  if (process.env.JANUS_PID) return Number(process.env.JANUS_PID);
  const file = path.join(process.env.LOBBY_RUN_DIR ?? '.run', 'pids', 'janus.pid');
  return Number(fs.readFileSync(file, 'utf8').trim());
}

/** the process's CPU time so far, in µs (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms) */
function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
  return ticks * (1_000_000 / 100); // USER_HZ is 100 on Linux
}

type Packets = { sent: number; received: number };
const packetsOf = (page: Page) => page.evaluate(() => (window as unknown as { bench: { packets(): Promise<Packets> } }).bench.packets());

async function sample(pid: number, pages: Page[]): Promise<{ cpuPercent: number; packets: number }> {
  const totals = async () => (await Promise.all(pages.map(packetsOf))).reduce((a, p) => a + p.sent + p.received, 0);
  const p0 = await totals();
  const c0 = cpuMicros(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  const c1 = cpuMicros(pid);
  const t1 = performance.now();
  const p1 = await totals();
  return { cpuPercent: ((c1 - c0) / ((t1 - t0) * 1000)) * 100, packets: p1 - p0 };
}

async function main(): Promise<void> {
  const pid = janusPid();
  const bare = await serveBare();
  const { context, close } = await launchBenchBrowser();
  console.log(`Janus pid ${pid}, window ${WINDOW_S} s, load average ${os.loadavg()[0]!.toFixed(1)}`);
  try {
    const idle = await sample(pid, []);
    console.log(`0 calls: Janus ${idle.cpuPercent.toFixed(1)} % of a core`);
    for (const n of COUNTS) {
      const calls = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const room = await bareRoom(`benchcalls${n}x${i}`);
          const page = await context.newPage();
          await page.goto(`${bare.url}/bare.html?role=pair&${room.query}`);
          await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
          await page.evaluate(() => (window as unknown as { bench: { pair(): Promise<boolean> } }).bench.pair());
          return { page, room };
        }),
      );
      await new Promise((r) => setTimeout(r, 3000)); // let bandwidth estimation ramp up
      const s = await sample(pid, calls.map((c) => c.page));
      const perCall = (s.cpuPercent - idle.cpuPercent) / n;
      const perPacket = ((s.cpuPercent - idle.cpuPercent) / 100) * WINDOW_S * 1e6 / Math.max(1, s.packets);
      console.log(
        `${n} calls: Janus ${s.cpuPercent.toFixed(1)} % of a core, ${(s.packets / WINDOW_S).toFixed(0)} packets/s to and from it; ` +
          `${perCall.toFixed(2)} % per call, ${perPacket.toFixed(1)} µs per packet → ${(100 / perCall).toFixed(0)} calls per core ` +
          `(${((100 / perCall) / SMB_CALLS_PER_CORE).toFixed(1)} × SymphonyMediaBridge's ≈ ${SMB_CALLS_PER_CORE}); load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
      for (const c of calls) {
        await c.page.close();
        await c.room.destroy();
      }
    }
  } finally {
    await close();
    bare.close();
  }
}

await main();
