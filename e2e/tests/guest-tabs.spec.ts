/**
 * Two tabs of one guest (same browser, same guestId): only one holds the guest's XMPP session (resource
 * `web`), so they never kick each other off (docs/guest-journey.md "ongoing vs inCall"). The
 * other tab says the page is open elsewhere and connects by itself once the first tab closes.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { LAPTOP, expectScreen, record } from '../support/guest/screens.ts';

/** The XMPP websockets a tab opened, and how many of them closed. */
function watchXmpp(page: Page): { opened: number; closed: number } {
  const seen = { opened: 0, closed: 0 };
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/xmpp-websocket')) return;
    seen.opened += 1;
    ws.on('close', () => (seen.closed += 1));
  });
  return seen;
}

let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
});

test('when a guest opens two idle tabs, then one holds the session, neither is kicked, and the other connects once the first closes', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: LAPTOP });
  browsers.push(agent, guest);
  await agentSignsIn(agent.page);

  // arrange: the first tab connects; then a second tab of the same browser opens
  const first = guest.page;
  const firstXmpp = watchXmpp(first);
  await first.goto('/');
  await expectScreen(first, 'selection');
  await expect.poll(() => firstXmpp.opened).toBe(1);
  const second = await guest.context.newPage();
  const secondXmpp = watchXmpp(second);
  await second.goto('/');
  await expectScreen(second, 'inCall');
  await expect(second.locator('[data-other-tab="idle"]')).toBeVisible();
  await record(second, testInfo, 'inCall-idle-en');

  // act: both stay open and idle for a while (a second session with the same resource would have
  // replaced the first within a second or two)
  await first.waitForTimeout(6_000);

  // assert: one session, never closed; the second tab never opened one
  expect(firstXmpp).toEqual({ opened: 1, closed: 0 });
  expect(secondXmpp).toEqual({ opened: 0, closed: 0 });
  await expectScreen(first, 'selection');

  // and a call from the tab holding the session is answered, with media
  await first.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await first.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  await item.getByTestId('answer-button').click();
  await expectScreen(first, 'ongoing');
  await expectMediaFlowing(first, 'guest');
  expect(firstXmpp).toEqual({ opened: 1, closed: 0 });

  // act: the first tab closes; assert: the second tab connects on its own and may call
  await first.close();
  await expectScreen(second, 'selection');
  await expect.poll(() => secondXmpp.opened).toBe(1);
  expect(secondXmpp.closed).toBe(0);
  await expect(second.locator('[data-testid="call-button"][data-call-kind="video"]')).toBeEnabled();
});
