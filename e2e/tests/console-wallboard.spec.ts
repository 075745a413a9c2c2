/**
 * The supervisors' wall board (docs/api.md "Wall board"), on a large screen: after a known sequence of
 * calls — one answered, one abandoned, one booked instead — its figures have moved by exactly those,
 * live through the console's event stream (the page is never reloaded); axe finds nothing serious.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { DEMO_ADMIN } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { restoreAll } from '../support/guest/arrange.ts';
import { arrangeLongWaitBooking } from '../support/guest/longWait.ts';
import { LAPTOP, expectAccessible } from '../support/guest/screens.ts';

test.use({ trace: 'off' });

const LARGE = { width: 1920, height: 1080 };
let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  await restoreAll();
});
async function launch(tag: string, viewport: { width: number; height: number }) {
  const launched = await launchParticipant(tag, { viewport });
  browsers.push(launched);
  return launched;
}
async function callOn(page: Page, assignment: string): Promise<void> {
  await page.goto('/');
  await page.getByTestId('assignment-option').filter({ hasText: assignment }).click();
  await page.locator('[data-testid="call-button"][data-call-kind="voice"]').click();
  await expect(page.locator('[data-screen="waiting"]')).toBeVisible();
}
const figure = (page: Page, key: string) => page.getByTestId(`wallboard-${key}`);
const valueOf = async (page: Page, key: string) => Number(await figure(page, key).getAttribute('data-value'));

test('when a call is answered, one abandoned and one booked instead, then the wall board shows exactly those, live', async ({}, testInfo) => {
  test.setTimeout(360_000);
  const longWait = await arrangeLongWaitBooking('english');

  // the supervisor's large screen: the board opened from the header by keyboard
  const board = await launch('wallboard-admin', LARGE);
  await agentSignsIn(board.page, DEMO_ADMIN);
  await board.page.getByTestId('nav-wallboard').focus();
  await board.page.keyboard.press('Enter');
  await expect(board.page.locator('[data-screen="wallboard"]')).toBeVisible();
  await expect(figure(board.page, 'answered')).toBeVisible();
  const before = { answered: await valueOf(board.page, 'answered'), abandoned: await valueOf(board.page, 'abandoned'), booked: await valueOf(board.page, 'booked') };
  const sales = board.page.getByTestId('wallboard-queue').filter({ hasText: 'Sales' });

  const agent = await launch('wallboard-agent', LAPTOP);
  await agentSignsIn(agent.page);
  await expect(figure(board.page, 'agents-available')).not.toHaveAttribute('data-value', '0');

  // answered: the agent takes the call, then the guest hangs up
  const answered = await launch('wallboard-answered', LAPTOP);
  await callOn(answered.page, 'Sales');
  await expect(sales).toHaveAttribute('data-waiting', '1');
  await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
  await expect(answered.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await expect(sales).toHaveAttribute('data-waiting', '0');
  await answered.page.getByTestId('hangup-button').click();
  await expect(figure(board.page, 'answered')).toHaveAttribute('data-value', String(before.answered + 1));

  // abandoned: a guest leaves the queue unanswered
  const leaver = await launch('wallboard-leaver', LAPTOP);
  await callOn(leaver.page, 'Sales');
  await expect(sales).toHaveAttribute('data-waiting', '1');
  await leaver.page.getByTestId('cancel-button').click();
  await expect(figure(board.page, 'abandoned')).toHaveAttribute('data-value', String(before.abandoned + 1));
  await expect(sales).toHaveAttribute('data-waiting', '0');

  // booked: a guest facing a long wait books a time instead
  const booker = await launch('wallboard-booker', LAPTOP);
  await callOn(booker.page, longWait);
  await expect(board.page.getByTestId('wallboard-queue').filter({ hasText: longWait })).toHaveAttribute('data-waiting', '1');
  await booker.page.getByRole('button', { name: 'Book a time instead' }).click({ timeout: 60_000 });
  await booker.page.getByRole('group', { name: 'Time' }).getByRole('radio').first().check();
  await booker.page.getByLabel('Your name').fill('Board Booker');
  await booker.page.getByTestId('booking-submit').click();
  await expect(booker.page.locator('[data-screen="booked"]')).toBeVisible();
  await expect(figure(board.page, 'booked')).toHaveAttribute('data-value', String(before.booked + 1));

  // nothing else moved
  await expect(figure(board.page, 'answered')).toHaveAttribute('data-value', String(before.answered + 1));
  await expect(figure(board.page, 'abandoned')).toHaveAttribute('data-value', String(before.abandoned + 1));
  await screenshot(board.page, testInfo, 'wallboard-large');
  await expectAccessible(board.page, testInfo, 'wallboard');

  // the same board in Arabic, right to left
  await board.page.getByRole('button', { name: 'العربية' }).click();
  await expect(board.page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(board.page.getByRole('heading', { name: 'لوحة المتابعة' })).toBeVisible();
  await expect(figure(board.page, 'booked')).toContainText('حجزوا موعدًا');
  await screenshot(board.page, testInfo, 'wallboard-large-ar');
  await expectAccessible(board.page, testInfo, 'wallboard-ar');
});
