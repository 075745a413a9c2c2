/**
 * A guest's rating with a comment is stored and shown with the call on the console's
 * Reports; a submission that fails tells the guest and lets them send it again (nothing is lost silently).
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN } from '../support/api.ts';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { LAPTOP, expectAccessible, expectScreen, record } from '../support/guest/screens.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';

let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  await restoreAll();
});

test('when a guest rates a call with 4 stars and a comment and the first send fails, then the guest is told, sends again, and Reports shows the rating with its comment', async ({}, testInfo) => {
  // arrange: the plain star rating (no rating form), an agent on duty, a guest in a call the agent ends
  await arrangeCompanySettings({ language: 'english', callType: 'video', showRatingPage: true, ratingStyle: 'stars', advanceRating: false });
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: LAPTOP });
  browsers.push(agent, guest);
  await agentSignsIn(agent.page);
  const page = guest.page;
  await page.goto('/');
  await page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
  await expectScreen(page, 'ongoing', 'en');
  await agent.page.getByTestId('agent-hangup-button').click();
  await expectScreen(page, 'rating', 'en');

  // act: 4 stars and a comment; the network drops the first submission
  const comment = `Quick and kind ${randomUUID().slice(0, 8)}`;
  let attempts = 0;
  await page.route('**/api/rating-form/submissions', async (route) => {
    attempts += 1;
    if (attempts === 1) await route.abort('failed');
    else await route.continue();
  });
  await page.getByTestId('rating-option').nth(3).click();
  await page.getByRole('textbox').fill(comment);
  await page.getByTestId('rating-submit-button').click();

  // assert: told, entries kept, one press sends again
  await expect(page.getByTestId('rating-send-failed')).toHaveText('Your rating could not be sent. Check your connection and try again.');
  await expect(page.getByTestId('call-again-button')).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveValue(comment);
  await expect(page.getByTestId('rating-submit-button')).toHaveText('Try again');
  await record(page, testInfo, 'rating-send-failed-en');
  await expectAccessible(page, testInfo, 'rating-send-failed-en');
  await page.getByTestId('rating-submit-button').click();
  await expect(page.getByTestId('call-again-button')).toBeVisible();
  expect(attempts).toBe(2);

  const rows = await queryRows<{ call_id: string; answers: string }>(
    'select call_reports.call_id, rating_submissions.answers from rating_submissions join call_reports on call_reports.id = rating_submissions.call_report_id where rating_submissions.answers like ?',
    [`%${comment}%`],
  );
  expect(rows).toHaveLength(1);
  expect(JSON.parse(rows[0]?.answers ?? '{}')).toEqual({ score: 4, comment });

  // Reports: the call's row shows the score and the comment
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  browsers.push(admin);
  await agentSignsIn(admin.page, DEMO_ADMIN);
  await admin.page.goto('/console/reports');
  const cell = admin.page.locator(`[data-testid="recent-call"][data-call-id="${rows[0]?.call_id ?? ''}"] [data-testid="recent-call-rating"]`);
  await expect(cell).toContainText('4 / 5');
  await expect(cell).toContainText(comment);
  await expectAccessible(admin.page, testInfo, 'reports-rating-comment-en');
});
