/**
 * Call set-up time ("answer → first frame"): TTFM of Lobby's answer at both sides, against a
 * bare janus.js join, side by side in one process.
 *
 * TTFM as Jitsi defines it (lib-jitsi-meet, modules/RTC/JitsiRemoteTrack.js, `_playCallback` and
 * `_attachTTFMTracker`): the time from the start of the user's session to the first render of a remote
 * track (the `canplay` of the element the track is attached to), less the time spent waiting for the
 * other participant (muc.joined → session-initiate) and less getUserMedia. Here the user's action is the
 * agent's Answer click (the guest has been waiting and publishing, so nobody is waited for), and "render"
 * is the first frame the compositor presents (`requestVideoFrameCallback`, later than `canplay`); the
 * agent's own getUserMedia is *not* subtracted (it overlaps the set-up; the bare page has it too).
 *
 *   bare:        a page with janus.js alone joins a room where another page publishes: session, attach,
 *                join, getUserMedia, publish, subscribe → first presented remote frame
 *   Lobby agent: the agent's Answer click on a waiting guest → first presented frame of the guest in the
 *                console's remote tile
 *   Lobby guest: the same click → first presented frame of the agent in the guest's remote tile (the
 *                clicks' and the frames' times are compared on the machine's one clock:
 *                performance.timeOrigin + performance.now())
 *
 * Each page the bench measures is the only tab of its own browser. Chromium draws only the active tab of
 * a window: a tab behind another has its frames left undrawn, and viz then gives it one frame a second
 * ("ThrottleUndrawnFrames" in a trace), which made every answer of the console (a tab behind the guest's
 * and the bare pages') look ≈ 1–2 s slow until 2026-11-27.
 *
 * Prints each run, the medians and the ratios Lobby / bare at each side (goal ≤ 1.0). Needs a running stack:
 *   ./scripts/start --detach && set -a && . .run/secrets.env && set +a && node bench/call-setup.ts [runs]
 * `--recording-ab` adds, after each Lobby run, one with the demo company's recordCalls off (set through the
 * admin API, DEMO_ADMIN_PASSWORD; put back on at the end): the recording's start asks the guest's publisher
 * for a keyframe, which can hold the agent's subscription's own request back (Janus: one PLI a second).
 * Each side's remote publisher has published for the same time when its subscription starts
 * (PUBLISHER_AGE_MS, default 3000): the agent clicks that long after the guest is listed (as an agent
 * takes a moment to see a guest), the bare page joins that long after its publisher published. A
 * publisher that has sent for seconds has ramped its rate and picture up, and its keyframe is larger than
 * a new one's: comparing a fresh bare publisher with a guest that waited seconds measured that, not the
 * set-up. A Lobby run also waits (at most 15 s) until the console says its standby media session is ready
 * (`data-media-ready`); whether it was is printed with the run.
 * `--standby-ab` (on a stack started with LOBBY_MEDIA_STANDBY=1; the default keeps no standby sessions)
 * adds, after each Lobby run, one without the agent's standby media session: the console's
 * POST /api/console/media/standby is held in the agent's browser until that run's frames are in, so the
 * answer makes its Janus session and handles itself (as before 2026-11-27's evening).
 * `--timeline` prints, for each Lobby run, the steps at the agent and at the guest relative to the click
 * (media grant, Janus requests and events, peer connections, first packet and first decoded frame).
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), DEMO_AGENT_PASSWORD, JANUS_TOKEN_SECRET and
 * JANUS_ROOM_ADMIN_KEY (from .run/secrets.env), JANUS_HTTP_URL (default http://127.0.0.1:8088/janus).
 * The bare pages go through the same public /janus as Lobby (the gate); their room is created the way the
 * Lobby server creates rooms (a browser may not), and each page gets a token for it.
 */
import type { Page } from 'playwright-core';
import { BASE, bareRoom, launchBenchBrowser, median, serveBare } from './support/bareJanus.ts';
import { collect, installTimeline, startPolling } from './support/timeline.ts';

const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const RECORDING_AB = args.includes('--recording-ab');
/** `--timeline`: print each Lobby run's page-side steps at both sides (support/timeline.ts) */
const TIMELINE = args.includes('--timeline');
const STANDBY_AB = args.includes('--standby-ab');
/** how long a run waits at most for the console's standby session */
const STANDBY_WAIT_MS = 15_000;
/** how long the remote publisher has published when the subscription starts, at both sides (see above) */
const PUBLISHER_AGE_MS = Number(process.env.PUBLISHER_AGE_MS ?? 3000);
const GOAL = 1.0;
const password = process.env.DEMO_AGENT_PASSWORD;
if (!password) throw new Error('DEMO_AGENT_PASSWORD is not set (source .run/secrets.env)');

/**
 * Arms the page: `__frame` resolves with the clock time (ms since the epoch, sub-millisecond) of the first
 * frame presented by a remote video tile that appears from now on; `__click` records the next click's.
 */
function arm(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { __click?: number; __frame?: Promise<number> };
    const now = () => performance.timeOrigin + performance.now();
    delete w.__click;
    w.__frame = new Promise<number>((resolve) => {
      const seen = new WeakSet<HTMLVideoElement>();
      let done = false;
      const check = () => {
        if (done) return; // one loop per run: a loop left running would tax every later run's frames
        for (const v of document.querySelectorAll<HTMLVideoElement>(
          '[data-testid="remote-video"] video, video[data-testid="remote-video"]',
        )) {
          if (seen.has(v)) continue;
          seen.add(v);
          v.requestVideoFrameCallback(() => {
            done = true;
            resolve(now());
          });
        }
        requestAnimationFrame(check);
      };
      check();
    });
    document.addEventListener('click', () => (w.__click = now()), { capture: true, once: true });
  });
}

/** A step that must end: the bench fails naming it rather than waiting for ever. */
function within<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const frameOf = (page: Page, side: string) =>
  within(page.evaluate(() => (window as unknown as { __frame: Promise<number> }).__frame), `the first frame at the ${side}`);

async function lobbyRun(guest: Page, agent: Page, standby = true): Promise<{ agent: number; guest: number; standby: boolean }> {
  await guest.goto(`${BASE}/`);
  await guest.getByTestId('assignment-option').first().click();
  await guest.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  const item = agent.getByTestId('queue-item');
  await item.first().waitFor({ timeout: 30_000 });
  const listed = Date.now();
  // the guest is waiting and publishing; its side is armed before the agent can click
  await arm(guest);
  await arm(agent);
  const ready = agent.locator('[data-testid="queue-panel"][data-media-ready="true"]');
  const withStandby = standby && (await ready.waitFor({ timeout: STANDBY_WAIT_MS }).then(() => true, () => false));
  await new Promise((r) => setTimeout(r, Math.max(0, listed + PUBLISHER_AGE_MS - Date.now())));
  if (TIMELINE) await Promise.all([startPolling(guest), startPolling(agent)]);
  await item.first().getByTestId('answer-button').click();
  const click = await agent.evaluate(() => (window as unknown as { __click: number }).__click);
  const [atAgent, atGuest] = await Promise.all([frameOf(agent, 'agent'), frameOf(guest, 'guest')]);
  if (TIMELINE) {
    // the last decoded-frame poll may land after the presented frame: wait one poll
    await new Promise((r) => setTimeout(r, 60));
    console.log(`  agent (frame presented at ${(atAgent - click).toFixed(0)} ms):`);
    for (const line of await collect(agent, click)) console.log(`    ${line}`);
    console.log(`  guest (frame presented at ${(atGuest - click).toFixed(0)} ms):`);
    for (const line of await collect(guest, click)) console.log(`    ${line}`);
  }
  await agent.getByTestId('agent-hangup-button').click();
  await agent.getByTestId('call-idle').waitFor();
  await guest.locator('[data-screen="abandoned"], [data-screen="rating"]').waitFor();
  return { agent: atAgent - click, guest: atGuest - click, standby: withStandby };
}

async function bareRun(bareUrl: string, pubPage: Page, subPage: Page, i: number): Promise<number> {
  const { query, destroy } = await bareRoom(`benchbare${i}`);
  await pubPage.goto(`${bareUrl}/bare.html?role=pub&${query}`);
  await pubPage.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
  await within(
    pubPage.evaluate(() => (window as unknown as { bench: { publishOnly(): Promise<boolean> } }).bench.publishOnly()),
    'the bare publisher',
  );
  await new Promise((r) => setTimeout(r, PUBLISHER_AGE_MS));
  await subPage.goto(`${bareUrl}/bare.html?role=sub&${query}`);
  await subPage.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
  try {
    return await within(
      subPage.evaluate(() => (window as unknown as { bench: { join(): Promise<number> } }).bench.join()),
      'the bare join',
    );
  } finally {
    await destroy();
  }
}

/** Sets the demo company's recordCalls as its admin does in the console (PUT /api/admin/company). */
let adminCookie: string | null = null;
async function setRecordCalls(on: boolean): Promise<void> {
  adminCookie ??= await adminLogin();
  const put = await fetch(`${BASE}/api/admin/company`, {
    method: 'PUT',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ recordCalls: on }),
  });
  if (!put.ok) throw new Error(`recordCalls=${String(on)}: ${put.status} ${await put.text()}`);
}

/** One admin login for the whole bench (logins are rate-limited). */
async function adminLogin(): Promise<string> {
  const login = await fetch(`${BASE}/api/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.lobby', password: process.env.DEMO_ADMIN_PASSWORD ?? '' }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} (is DEMO_ADMIN_PASSWORD set?)`);
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** A browser of its own with its one page (the active tab of its window). */
async function soloPage(timeline = false): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, close } = await launchBenchBrowser();
  if (timeline) await installTimeline(context);
  const page = context.pages()[0] ?? (await context.newPage());
  return { page, close };
}

async function main(): Promise<void> {
  const bare = await serveBare();
  const browsers = await Promise.all([soloPage(TIMELINE), soloPage(TIMELINE), soloPage(), soloPage()]);
  const [agent, guest, pubPage, subPage] = browsers.map((b) => b.page) as [Page, Page, Page, Page];
  try {
    await agent.goto(`${BASE}/console/`);
    await agent.getByTestId('login-email').fill('agent@demo.lobby');
    await agent.getByTestId('login-password').fill(password!);
    await agent.getByTestId('login-submit').click();
    await agent.getByTestId('queue-empty').waitFor();

    const atAgent: number[] = [];
    const atGuest: number[] = [];
    const unrecorded = { agent: [] as number[], guest: [] as number[] };
    const bareTimes: number[] = [];
    const cold = { agent: [] as number[], guest: [] as number[] };
    // alternate, so that drift of the machine's load affects both sides alike
    for (let i = 0; i < RUNS; i++) {
      bareTimes.push(await bareRun(bare.url, pubPage, subPage, i));
      const run = await lobbyRun(guest, agent);
      atAgent.push(run.agent);
      atGuest.push(run.guest);
      console.log(
        `run ${i + 1}: bare ${bareTimes.at(-1)!.toFixed(0)} ms, Lobby at the agent ${run.agent.toFixed(0)} ms, at the guest ${run.guest.toFixed(0)} ms` +
          (run.standby ? ' (standby session)' : ' (no standby session ready)'),
      );
      if (STANDBY_AB) {
        // held, not refused: a refusal would pause the console's next try (10 s) into the next run
        let release = () => undefined as void;
        const held = new Promise<void>((r) => (release = r));
        await agent.route('**/api/console/media/standby', async (route) => {
          await held;
          await route.continue().catch(() => undefined);
        });
        try {
          const off = await lobbyRun(guest, agent, false);
          cold.agent.push(off.agent);
          cold.guest.push(off.guest);
          console.log(`       no standby: Lobby at the agent ${off.agent.toFixed(0)} ms, at the guest ${off.guest.toFixed(0)} ms`);
        } finally {
          release();
          await agent.unroute('**/api/console/media/standby');
        }
      }
      if (RECORDING_AB) {
        await setRecordCalls(false);
        try {
          const off = await lobbyRun(guest, agent);
          unrecorded.agent.push(off.agent);
          unrecorded.guest.push(off.guest);
          console.log(`       not recorded: Lobby at the agent ${off.agent.toFixed(0)} ms, at the guest ${off.guest.toFixed(0)} ms`);
        } finally {
          await setRecordCalls(true);
        }
      }
      await pubPage.goto('about:blank');
      await subPage.goto('about:blank');
    }
    const m = { bare: median(bareTimes), agent: median(atAgent), guest: median(atGuest) };
    console.log(
      `\nTTFM (Answer → first presented remote frame), median of ${RUNS}: bare janus.js join ${m.bare.toFixed(0)} ms; ` +
        `Lobby at the agent ${m.agent.toFixed(0)} ms (ratio ${(m.agent / m.bare).toFixed(2)}), ` +
        `at the guest ${m.guest.toFixed(0)} ms (ratio ${(m.guest / m.bare).toFixed(2)}) (goal ≤ ${GOAL.toFixed(2)})`,
    );
    if (STANDBY_AB) {
      const off = { agent: median(cold.agent), guest: median(cold.guest) };
      console.log(
        `no standby session: Lobby at the agent ${off.agent.toFixed(0)} ms (ratio ${(off.agent / m.bare).toFixed(2)}), ` +
          `at the guest ${off.guest.toFixed(0)} ms (ratio ${(off.guest / m.bare).toFixed(2)})`,
      );
    }
    if (RECORDING_AB) {
      const off = { agent: median(unrecorded.agent), guest: median(unrecorded.guest) };
      console.log(
        `not recorded: Lobby at the agent ${off.agent.toFixed(0)} ms (ratio ${(off.agent / m.bare).toFixed(2)}), ` +
          `at the guest ${off.guest.toFixed(0)} ms (ratio ${(off.guest / m.bare).toFixed(2)})`,
      );
    }
  } finally {
    await Promise.all(browsers.map((b) => b.close()));
    bare.close();
  }
}

await main();
