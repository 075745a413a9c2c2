/**
 * "Every waiting guest reaches the queue whatever N" (docs/performance.md), on the real stack: more than 100
 * guests wait (light clients, support/lightGuest.ts: the HTTP API and a bare XMPP client, not browsers),
 * and one real console lists them all: those already waiting when it opens (it joins every guest's room
 * at start) and those arriving later (it joins each room the server announces). ejabberd's default
 * max_user_conferences (100) once refused the console's 101st room, so the 101st guest and every later one
 * were never listed; the queue is drawn virtually, so the later guests are checked by scrolling to them.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { lightGuestLeaves, lightGuestsWait, type LightGuest } from '../support/lightGuest.ts';
import { listedCallIds, queueCount, queueScreen, type QueueScreen } from '../support/queueList.ts';
import { adminApi } from './routing-support.ts';

const BEFORE_CONSOLE = 110;
const AFTER_CONSOLE = 15;
/** VirtualList's OVERSCAN_ROWS: rows drawn beyond those on screen, on each side */
const OVERSCAN_ROWS = 3;

test('when more than 100 guests wait, before and after the console opens, then the console lists every one of them', async ({}, testInfo) => {
  test.setTimeout(240_000);
  const guests: LightGuest[] = [];
  const agent = await launchParticipant('agent');
  // each drawn row asks for its call's details (GET /api/console/calls/{callId})
  const detailRequests: string[] = [];
  agent.page.on('request', (r) => {
    if (/^\/api\/console\/calls\/[^/]+$/.test(new URL(r.url()).pathname)) detailRequests.push(r.url());
  });
  // every light guest calls from this machine's one address: the company's cap of open calls per address
  // (docs/security.md "Open calls") is lifted for this journey
  const { maxOpenCallsPerAddress: cap } = await adminApi<{ maxOpenCallsPerAddress: number }>('GET', '/admin/company');
  await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress: 0 });
  try {
    // arrange: more guests wait than ejabberd's default room limit per user
    guests.push(...(await lightGuestsWait(BEFORE_CONSOLE)));

    // act: the agent opens the console, then more guests arrive
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    await expect.poll(() => queueCount(agent.page), { message: 'guests listed at start', timeout: 60_000 }).toBeGreaterThanOrEqual(BEFORE_CONSOLE);
    const atStart = await queueCount(agent.page);
    // only the rows on screen and a few more are drawn, and only those asked for their details
    await agent.page.waitForTimeout(1000);
    const top = await queueScreen(agent.page);
    expect(top.drawn).toBeLessThanOrEqual(top.onScreen.length + OVERSCAN_ROWS);
    expect(detailRequests.length, 'details asked at the top of the queue').toBeLessThanOrEqual(top.drawn);
    const late = await lightGuestsWait(AFTER_CONSOLE);
    guests.push(...late);

    // assert: every later guest is counted, and every guest, early or late, is in the list
    await expect.poll(() => queueCount(agent.page), { message: 'guests listed after the later arrivals', timeout: 60_000 }).toBe(atStart + AFTER_CONSOLE);
    // read with the wheel over the queue, a screen at a time: every screen draws its rows and a few more
    const screens: QueueScreen[] = [];
    const listed = await listedCallIds(agent.page, (screen) => screens.push(screen));
    expect(screens.filter((s) => s.drawn > s.onScreen.length + 2 * OVERSCAN_ROWS), 'screens drawing more than their rows and the overscan').toEqual([]);
    expect(guests.filter((g) => !listed.has(g.callId)).map((g) => g.callId), 'guests missing from the queue').toEqual([]);
    expect(listed.size).toBe(atStart + AFTER_CONSOLE);
    // and the rows drawn know the whole length (assistive technology hears it), though fewer are drawn
    await expect(agent.page.getByTestId('queue-item').last()).toHaveAttribute('aria-setsize', String(atStart + AFTER_CONSOLE));
  } finally {
    // the guests leave as the guest app does (their calls end), so the next journey's guests find the
    // address's open calls within the company's cap again
    await Promise.all(guests.map(lightGuestLeaves));
    await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress: cap });
    await closeAll(testInfo, agent);
  }
});
