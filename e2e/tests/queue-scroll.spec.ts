/**
 * The queue scrolls inside its panel (docs/performance.md "Waiting guests"): 20 guests wait and the agent,
 * on a laptop's 1366×900 screen, turns the mouse wheel over the queue. The queue moves, the console's
 * header stays in view (once the queue's list grew as tall as its rows and the wheel scrolled the whole
 * console away to an empty grey page), only the rows on screen and a few more are drawn, and the last
 * guest comes into view and is answered by a click.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { lightGuestLeaves, lightGuestsWait, type LightGuest } from '../support/lightGuest.ts';
import { pointAtQueue, queueCount, queueScreen, queueView, wheelQueue } from '../support/queueList.ts';

const GUESTS = 20;
/** VirtualList's OVERSCAN_ROWS: rows drawn beyond those on screen, on each side */
const OVERSCAN_ROWS = 3;

test('when 20 guests wait on a 1366×900 screen, then the wheel over the queue scrolls the queue, the header stays, and the last guest is answered by a click', async ({}, testInfo) => {
  test.setTimeout(180_000);
  const guests: LightGuest[] = [];
  const agent = await launchParticipant('agent', { viewport: { width: 1366, height: 900 } });
  try {
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const base = await queueCount(agent.page);
    guests.push(...(await lightGuestsWait(GUESTS, 5)));
    await expect.poll(() => queueCount(agent.page), { message: 'every guest listed', timeout: 60_000 }).toBe(base + GUESTS);
    // the last to arrive waited least: it is at the end of the queue, out of sight
    const last = guests.reduce((a, b) => (b.sentAt > a.sentAt ? b : a));
    const lastRow = agent.page.locator(`[data-testid="queue-item"][data-call-id="${last.callId}"]`);
    await expect(lastRow).not.toBeInViewport();
    const header = agent.page.getByRole('banner');
    const queueTitle = agent.page.getByRole('heading', { name: 'Waiting guests' });
    await screenshot(agent.page, testInfo, 'queue-scroll-0-top');

    // act: the wheel over the queue, a screen at a time, until the last guest is in view
    await pointAtQueue(agent.page);
    let screen = await queueScreen(agent.page);
    for (let step = 1; !screen.atEnd; step++) {
      expect(step, 'wheel turns to reach the end').toBeLessThan(40);
      screen = await wheelQueue(agent.page, 400);
      await screenshot(agent.page, testInfo, `queue-scroll-${step}`);
      // the page itself never moves: the header and the queue's title stay on screen
      await expect(header).toBeInViewport({ ratio: 1 });
      await expect(queueTitle).toBeInViewport({ ratio: 1 });
      expect(await agent.page.evaluate(() => window.scrollY), 'the page scrolled').toBe(0);
      // drawn: the rows on screen and at most the overscan on each side
      expect(screen.drawn).toBeLessThanOrEqual(screen.onScreen.length + 2 * OVERSCAN_ROWS);
    }
    expect(screen.top, 'the queue itself scrolled').toBeGreaterThan(0);
    // more wheel at the end does not carry on to the page
    await agent.page.mouse.wheel(0, 2000);
    await agent.page.waitForTimeout(300);
    expect(await agent.page.evaluate(() => window.scrollY), 'the page scrolled at the queue end').toBe(0);
    await expect(header).toBeInViewport({ ratio: 1 });
    await expect(lastRow).toBeInViewport({ ratio: 1 });
    const view = await queueView(agent.page).boundingBox();
    expect(view!.y + view!.height, 'the queue ends inside the window').toBeLessThanOrEqual(900);

    // the last guest is answered by a click (its media room opened, as the guest app does before answering)
    const media = await fetch(`${BASE_URL}/api/call-report/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${last.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: last.callId }),
    });
    expect(media.status).toBe(200);
    await lastRow.getByTestId('answer-button').click();
    const call = agent.page.getByTestId('active-call');
    await expect(call).toHaveAttribute('data-call-id', last.callId);
    await expect(agent.page.getByTestId('agent-hangup-button')).toBeVisible();
    await screenshot(agent.page, testInfo, 'queue-scroll-answered');
    await agent.page.getByTestId('agent-hangup-button').click();
  } finally {
    // the guests leave as the guest app does (their calls end)
    await Promise.all(guests.map(lightGuestLeaves));
    await closeAll(testInfo, agent);
  }
});
