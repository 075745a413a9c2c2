/**
 * The answered notice (widget service and full page alike): when an agent answers while the guest's page is
 * hidden, the guest hears a chime, the page title says so, and a browser notification appears when
 * notifications are allowed (notificationAllowed); the title comes back once the page is seen.
 */
import { expect, test } from '@playwright/test';
import { BASE_URL } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { HIDDEN_PAGE_INIT_SCRIPT } from '../support/widget/hiddenPage.ts';

interface Recorded {
  __lobbySetHidden(hidden: boolean): void;
  __lobbyNotifications: Array<{ title: string; body: string }>;
  __lobbyTones: number;
}

test('widget notice: when an agent answers while the guest page is hidden, then the guest gets a notification, a chime and the page title says so', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await guest.context.grantPermissions(['notifications'], { origin: BASE_URL });
    await guest.context.addInitScript(HIDDEN_PAGE_INIT_SCRIPT);
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-empty')).toBeVisible();

    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1); // published and announced: the guest may now look elsewhere
    const titleBefore = await guest.page.title();

    // the guest switches to another tab, then the agent answers
    await guest.page.evaluate(() => (window as unknown as Recorded).__lobbySetHidden(true));
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeAttached();

    await expect.poll(() => guest.page.title()).toBe(`Your call was answered — ${titleBefore}`);
    const recorded = () => guest.page.evaluate(() => ({ n: (window as unknown as Recorded).__lobbyNotifications, tones: (window as unknown as Recorded).__lobbyTones }));
    await expect.poll(async () => (await recorded()).n).toEqual([{ title: 'Your call was answered', body: expect.stringContaining('answered your call') as unknown as string }]);
    expect((await recorded()).tones).toBeGreaterThanOrEqual(2);

    // back to the page: the title is the page's own again
    await guest.page.evaluate(() => (window as unknown as Recorded).__lobbySetHidden(false));
    await expect.poll(() => guest.page.title()).toBe(titleBefore);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('widget notice: when an agent answers while the guest page is visible, then there is no notification and the title stays', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await guest.context.grantPermissions(['notifications'], { origin: BASE_URL });
    await guest.context.addInitScript(HIDDEN_PAGE_INIT_SCRIPT);
    await agentSignsIn(agent.page);
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    const titleBefore = await guest.page.title();
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await guest.page.waitForTimeout(500);
    expect(await guest.page.title()).toBe(titleBefore);
    expect(await guest.page.evaluate(() => (window as unknown as Recorded).__lobbyNotifications.length)).toBe(0);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
