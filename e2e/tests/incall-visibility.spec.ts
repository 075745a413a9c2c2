/**
 * Page visibility (docs/guest-journey.md "Rules"): a waiting guest on a mobile Android device without
 * notification permission could never be alerted while its page is hidden, so it announces Away, and the
 * agents' queue drops it (only OpenCall members are open calls); when the page is visible again it
 * announces OpenCall and is back in the queue, and the call can be answered.
 *
 * Headless Chromium keeps every page "visible" (neither another tab nor a minimised window changes
 * document.visibilityState), so the test sets the state the browser would report and fires the real
 * visibilitychange event; everything after it is the app's own code and the real XMPP server.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';

const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** What the browser reports when the user switches away from (hidden) or back to (visible) the page. */
async function setPageVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

test('when a waiting guest on an Android phone hides the page, then it is Away and leaves the queue, and when it comes back it is OpenCall again and can be answered', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 412, height: 915 }, userAgent: ANDROID_PHONE });
  try {
    await agentSignsIn(agent.page);
    await guest.page.goto('/');
    expect(await guest.page.evaluate(() => Notification.permission)).not.toBe('granted');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-presence', /^OpenCall\|/);
    const callId = await item.getAttribute('data-call-id');

    // act: the guest switches to another app
    await setPageVisibility(guest.page, 'hidden');

    // assert: its presence is Away, so the agents' queue no longer offers the call
    await expect(item).toHaveCount(0);
    await screenshot(agent.page, testInfo, 'incall-visibility-agent-away');

    // act: the guest comes back to the page
    await setPageVisibility(guest.page, 'visible');

    // assert: OpenCall again, the same call back in the queue; the agent answers and media flows
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-presence', /^OpenCall\|/);
    await expect(item).toHaveAttribute('data-call-id', callId ?? '');
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectMediaFlowing(agent.page, 'agent after answering the returned guest');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
