/**
 * Calls per Janus core: N concurrent 1:1 calls through the stack's Janus, each a page of the
 * bare janus.js client (bench/pages/bare-janus.html `pair()`: two participants that publish camera and
 * microphone and subscribe to each other, as a guest and an agent do), with Chromium's fake devices.
 * For each N, once the publishers' video rate settles (the browsers raise their bandwidth estimate over
 * tens of seconds: a warm-up of up to WARMUP_MAX_S, default 60), it samples for a window:
 *   - Janus's CPU time (from /proc/<pid>/stat: user + system), against the same window with no call;
 *   - the RTP packets the calls' peer connections sent to Janus and received from it (getStats),
 *   - each publisher's video: kbit/s, frame, and why not more (getStats qualityLimitationReason: `cpu`
 *     means the browsers, not Janus, are the limit), and the browsers' bandwidth estimate,
 * and prints CPU % of one core per call, CPU µs per relayed packet, and the calls one core would carry
 * at the measured rate and at a real call's (≈ 1.5 Mbit/s of video per publisher, from the per-packet
 * cost), each beside the ≈ 50 calls per core reported for SymphonyMediaBridge (a published figure,
 * not run here; its ratio is printed). Janus's cost grows with packets, the browsers' (encoding) with calls: on this 2-core
 * machine the browsers run out first, so the per-packet cost is what carries over to a bigger machine.
 *
 *   ./scripts/start --detach && set -a && . .run/secrets.env && set +a && node bench/janus-calls.ts [1,2,4] [seconds=15]
 * Env as bench/support/bareJanus.ts; JANUS_PID (default: $LOBBY_RUN_DIR/pids/janus.pid, LOBBY_RUN_DIR=.run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { bareRoom, launchBenchBrowser, noiseCamera, serveBare } from './support/bareJanus.ts';

const COUNTS = (process.argv[2] ?? '1,2,4').split(',').map(Number);
const WINDOW_S = Number(process.argv[3] ?? 15);
/** the longest warm-up: until the publishers' video rate stops rising, at most this long */
const WARMUP_MAX_S = Number(process.env.WARMUP_MAX_S ?? 60);
const SMB_CALLS_PER_CORE = 50;
/**
 * A real call's publisher at Lobby's settings (no room bitrate, no b=AS: the browser's estimate decides;
 * 1440×1080 asked for): Chromium's VP8 at ≈ 1.5 Mbit/s of camera video plus 50 Opus packets/s. What a
 * call relays through Janus at that rate, in the bench's count (sent to and received from Janus by both
 * participants): 2 × 2 × (video packets of ≈ 1,100 bytes + 50).
 */
const REAL_VIDEO_KBPS = 1500;
const REAL_PACKETS_PER_CALL = 4 * ((REAL_VIDEO_KBPS * 1000) / 8 / 1100 + 50);

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
type Video = { bytesSent: number; width: number; height: number; fps: number; limitation: string; estimate: number | null };
const videoOf = (page: Page) => page.evaluate(() => (window as unknown as { bench: { video(): Promise<Video[]> } }).bench.video());

/** every publisher's video of these calls now */
const videos = async (pages: Page[]) => (await Promise.all(pages.map(videoOf))).flat();
const bytes = (vs: Video[]) => vs.reduce((a, v) => a + v.bytesSent, 0);

/**
 * Waits until the publishers' video rate settles: the browsers start at ≈ 300 kbit/s and raise their
 * estimate over tens of seconds (10 s of warm-up left them at ≈ 350 packets/s per call). Settled: the
 * last 5 s sent no more than 5 % above the 5 s before, after at least 20 s. Returns the kbit/s per publisher.
 */
async function warmUp(pages: Page[]): Promise<{ seconds: number; kbpsPerPublisher: number }> {
  const t0 = performance.now();
  let last = bytes(await videos(pages));
  let lastRate = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = bytes(await videos(pages));
    const rate = ((now - last) * 8) / 5 / 1000 / (pages.length * 2);
    last = now;
    const seconds = (performance.now() - t0) / 1000;
    if ((seconds >= 20 && rate <= lastRate * 1.05) || seconds >= WARMUP_MAX_S) return { seconds: Math.round(seconds), kbpsPerPublisher: Math.round(rate) };
    lastRate = rate;
  }
}

async function sample(pid: number, pages: Page[]): Promise<{ cpuPercent: number; packets: number; kbpsPerPublisher: number; after: Video[] }> {
  const totals = async () => (await Promise.all(pages.map(packetsOf))).reduce((a, p) => a + p.sent + p.received, 0);
  const p0 = await totals();
  const b0 = bytes(await videos(pages));
  const c0 = cpuMicros(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  const c1 = cpuMicros(pid);
  const t1 = performance.now();
  const p1 = await totals();
  const after = await videos(pages);
  const kbpsPerPublisher = pages.length ? Math.round(((bytes(after) - b0) * 8) / ((t1 - t0) / 1000) / 1000 / (pages.length * 2)) : 0;
  return { cpuPercent: ((c1 - c0) / ((t1 - t0) * 1000)) * 100, packets: p1 - p0, kbpsPerPublisher, after };
}

async function main(): Promise<void> {
  const pid = janusPid();
  const bare = await serveBare();
  // a camera the encoder cannot compress to nothing (support/bareJanus.ts noiseCamera); CAMERA=pattern
  // keeps Chromium's default fake camera (≈ 200 kbit/s whatever the estimate)
  const camera = process.env.CAMERA === 'pattern' ? [] : [`--use-file-for-fake-video-capture=${noiseCamera()}`];
  const { context, close } = await launchBenchBrowser(camera);
  console.log(`Janus pid ${pid}, window ${WINDOW_S} s, camera ${camera.length ? 'noise 640×480' : 'pattern'}, load average ${os.loadavg()[0]!.toFixed(1)}`);
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
      const warm = await warmUp(calls.map((c) => c.page));
      const s = await sample(pid, calls.map((c) => c.page));
      const perCall = (s.cpuPercent - idle.cpuPercent) / n;
      const perPacket = ((s.cpuPercent - idle.cpuPercent) / 100) * WINDOW_S * 1e6 / Math.max(1, s.packets);
      // at a real call's rate: Janus's cost follows packets (µs per packet × a real call's packets)
      const realPerCall = (perPacket * REAL_PACKETS_PER_CALL) / 1e4;
      const limits = [...new Set(s.after.map((v) => v.limitation))].join('/');
      const frame = s.after[0] ? `${s.after[0].width}×${s.after[0].height} at ${Math.round(s.after[0].fps)} fps` : '–';
      const estimate = s.after.map((v) => v.estimate).filter((e): e is number => e !== null);
      console.log(
        `${n} calls: Janus ${s.cpuPercent.toFixed(1)} % of a core, ${(s.packets / WINDOW_S).toFixed(0)} packets/s to and from it ` +
          `(${(s.packets / WINDOW_S / n).toFixed(0)} per call); video ${s.kbpsPerPublisher} kbit/s per publisher (${frame}, ` +
          `limited by ${limits}${limits.includes('cpu') ? ': the browsers, not Janus' : ''}; estimate ` +
          `${estimate.length ? Math.round(Math.min(...estimate) / 1000) : '–'} kbit/s; warm-up ${warm.seconds} s); ` +
          `${perCall.toFixed(2)} % per call, ${perPacket.toFixed(1)} µs per packet → ${(100 / perCall).toFixed(0)} calls per core ` +
          `at this rate (${((100 / perCall) / SMB_CALLS_PER_CORE).toFixed(1)} × SymphonyMediaBridge's ≈ ${SMB_CALLS_PER_CORE}); ` +
          `at a real call's ${REAL_VIDEO_KBPS} kbit/s (${REAL_PACKETS_PER_CALL.toFixed(0)} packets/s per call): ${realPerCall.toFixed(2)} % per call, ` +
          `${(100 / realPerCall).toFixed(0)} calls per core (${((100 / realPerCall) / SMB_CALLS_PER_CORE).toFixed(1)} × SMB); load average ${os.loadavg()[0]!.toFixed(1)}`,
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
