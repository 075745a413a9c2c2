/**
 * Call set-up time, Lobby against bare janus.js, side by side in one process and one browser.
 *
 *   bare:  a page with janus.js alone joins a room where another page publishes: session, attach,
 *          join, getUserMedia, publish, subscribe → first decoded remote frame
 *   Lobby: the agent presses Answer on a waiting guest in the console → first decoded frame of the
 *          guest (the same steps, plus Lobby's engine, state and React rendering)
 *
 * Prints each run, both medians and the ratio Lobby / bare (goal ≤ 1.1). Needs a running stack:
 *   ./scripts/start --detach && node bench/call-setup.ts [runs]
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), DEMO_AGENT_PASSWORD, JANUS_TOKEN_SECRET and
 * JANUS_ROOM_ADMIN_KEY (from .run/secrets.env), JANUS_HTTP_URL (default http://127.0.0.1:8088/janus).
 * The bare pages go through the same public /janus as Lobby (the gate); their room is created the way the
 * Lobby server creates rooms (a browser may not), and each page gets a token for it.
 */
import type { Page } from 'playwright-core';
import { BASE, bareRoom, launchBenchBrowser, median, serveBare } from './support/bareJanus.ts';

const RUNS = Number(process.argv[2] ?? 5);
const password = process.env.DEMO_AGENT_PASSWORD;
if (!password) throw new Error('DEMO_AGENT_PASSWORD is not set (source .run/secrets.env)');

/** Resolves with the page time of the first decoded frame of a remote video shown in the console. */
function armFirstRemoteFrame(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { __t0?: number; __t1?: Promise<number> };
    w.__t1 = new Promise<number>((resolve) => {
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
            resolve(performance.now());
          });
        }
        requestAnimationFrame(check);
      };
      check();
    });
    document.addEventListener('click', () => (w.__t0 = performance.now()), { capture: true, once: true });
  });
}

async function lobbyRun(guest: Page, agent: Page): Promise<number> {
  await guest.goto(`${BASE}/`);
  await guest.getByTestId('assignment-option').first().click();
  await guest.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  const item = agent.getByTestId('queue-item');
  await item.first().waitFor({ timeout: 30_000 });
  await armFirstRemoteFrame(agent);
  await item.first().getByTestId('answer-button').click();
  const ms = await agent.evaluate(async () => {
    const w = window as unknown as { __t0: number; __t1: Promise<number> };
    return (await w.__t1) - w.__t0;
  });
  await agent.getByTestId('agent-hangup-button').click();
  await agent.getByTestId('call-idle').waitFor();
  await guest.locator('[data-screen="abandoned"], [data-screen="rating"]').waitFor();
  return ms;
}

async function bareRun(bareUrl: string, pubPage: Page, subPage: Page, i: number): Promise<number> {
  const { query, destroy } = await bareRoom(`benchbare${i}`);
  await pubPage.goto(`${bareUrl}/bare.html?role=pub&${query}`);
  await pubPage.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
  await pubPage.evaluate(() =>
    (window as unknown as { bench: { publishOnly(): Promise<boolean> } }).bench.publishOnly(),
  );
  await subPage.goto(`${bareUrl}/bare.html?role=sub&${query}`);
  await subPage.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
  try {
    return await subPage.evaluate(() => (window as unknown as { bench: { join(): Promise<number> } }).bench.join());
  } finally {
    await destroy();
  }
}

async function main(): Promise<void> {
  const bare = await serveBare();
  const { context, close } = await launchBenchBrowser();
  try {
    const agent = await context.newPage();
    await agent.goto(`${BASE}/console/`);
    await agent.getByTestId('login-email').fill('agent@demo.lobby');
    await agent.getByTestId('login-password').fill(password!);
    await agent.getByTestId('login-submit').click();
    await agent.getByTestId('queue-empty').waitFor();
    const guest = await context.newPage();
    const pubPage = await context.newPage();
    const subPage = await context.newPage();

    const lobby: number[] = [];
    const bareTimes: number[] = [];
    // alternate, so that drift of the machine's load affects both sides alike
    for (let i = 0; i < RUNS; i++) {
      bareTimes.push(await bareRun(bare.url, pubPage, subPage, i));
      lobby.push(await lobbyRun(guest, agent));
      console.log(
        `run ${i + 1}: bare ${bareTimes.at(-1)!.toFixed(0)} ms, Lobby ${lobby.at(-1)!.toFixed(0)} ms`,
      );
      await pubPage.goto('about:blank');
      await subPage.goto('about:blank');
    }
    const m = { bare: median(bareTimes), lobby: median(lobby) };
    console.log(
      `\nanswer → first remote frame, median of ${RUNS}: bare janus.js ${m.bare.toFixed(0)} ms, Lobby ${m.lobby.toFixed(0)} ms, ratio ${(m.lobby / m.bare).toFixed(2)} (goal ≤ 1.10)`,
    );
  } finally {
    await close();
    bare.close();
  }
}

await main();
