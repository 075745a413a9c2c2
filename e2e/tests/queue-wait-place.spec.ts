/**
 * The guest's place in the queue and the estimate of its wait (docs/guest-journey.md "Place in the
 * queue and estimate"), on an assignment of its own so that no other journey's calls count: three guests
 * wait and each reads its own place, which moves when the first is answered and when the second leaves;
 * an estimate appears once the assignment has a history of answered calls and goes when it has none.
 * The history is written into the database (what a day of calls would have left); everything else is
 * done as the guests and the agent do it.
 */
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { execute } from '../support/db.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { adminApi, makeAgent } from './routing-support.ts';

const COMPANY = 18;
/** the poll (10 s) plus the server's history cache (30 s) and a margin for a loaded machine */
const ESTIMATE_WITHIN = 60_000;
const PLACE_WITHIN = 25_000;

async function callOn(page: Page, assignment: string): Promise<void> {
  await page.goto('/');
  await page.getByTestId('assignment-option').filter({ hasText: assignment }).click();
  await page.locator('[data-testid="call-button"][data-call-kind="voice"]').click();
  await expect(page.locator('[data-screen="waiting"]')).toBeVisible();
}

const placeOf = (page: Page) => page.getByTestId('wait-place');

test('when three guests wait, then each reads its own place, which moves when one is answered or leaves; an estimate appears with a history and goes without one', async ({}, testInfo) => {
  test.setTimeout(240_000);
  const name = `Wait ${crypto.randomBytes(3).toString('hex')}`;
  const { id: assignmentId } = await adminApi<{ id: number }>('POST', '/admin/assignments', {
    name,
    type: 'queue',
  });
  const made = await makeAgent('Waiter', [name]);
  const seeded = `wait-${crypto.randomBytes(4).toString('hex')}`;
  const browsers: LaunchedBrowser[] = [];
  try {
    const agent = await launchParticipant('agent');
    browsers.push(agent);
    await agentSignsIn(agent.page, made);
    const guests: LaunchedBrowser[] = [];
    for (let i = 0; i < 3; i++) {
      const guest = await launchParticipant(
        `wait-guest-${i}`,
        i === 2 ? { viewport: { width: 390, height: 844 } } : {},
      );
      browsers.push(guest);
      guests.push(guest);
      await callOn(guest.page, name);
      // in the agent's queue before the next guest calls: the order is the order of arrival
      await expect(agent.page.getByTestId('queue-item')).toHaveCount(i + 1);
    }
    const [first, second, third] = guests.map((g) => g.page) as [Page, Page, Page];

    // ---- each reads its own place; no history yet: no estimate
    await expect(placeOf(first)).toHaveText('You are next in line', { timeout: PLACE_WITHIN });
    await expect(placeOf(second)).toHaveText('You are 2nd in line', { timeout: PLACE_WITHIN });
    await expect(placeOf(third)).toHaveText('You are 3rd in line', { timeout: PLACE_WITHIN });
    await expect(placeOf(third)).toHaveAttribute('data-estimate', '');

    // ---- a history of twelve calls answered within a minute and handled in about four
    const now = Date.now();
    for (let i = 0; i < 12; i++) {
      const created = now - 100 * 60_000 + i * 6 * 60_000;
      await execute(
        `INSERT INTO call_reports (call_id, company_id, guest_username, assignment_id, source, status, created_at, call_initiated_at, agent_answered_at, call_ended_at)
         VALUES (?, ?, ?, ?, 'site', 'ok', ?, ?, ?, ?)`,
        [
          `${seeded}-${i}`,
          COMPANY,
          `g${crypto.randomBytes(8).toString('hex')}`,
          assignmentId,
          created,
          created,
          created + 30_000,
          created + 30_000 + (210 + i * 5) * 1000,
        ],
      );
    }
    // two calls ahead of the third, one agent: about eight minutes, in the words the spread warrants
    await expect(placeOf(third)).toHaveAttribute('data-estimate', /minutes|fewMinutes|longWait/, {
      timeout: ESTIMATE_WITHIN,
    });
    await expect(placeOf(third)).toHaveText(/^You are 3rd in line · .*minutes$/);
    await screenshot(third, testInfo, 'guest-waiting-place-estimate-phone');

    // ---- the agent answers the first guest: the others move up
    await agent.page.getByTestId('queue-item').first().getByTestId('answer-button').click();
    await expect(first.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(placeOf(second)).toHaveText(/^You are next in line/, { timeout: PLACE_WITHIN });
    await expect(placeOf(third)).toHaveText(/^You are 2nd in line/, { timeout: PLACE_WITHIN });

    // ---- the second guest leaves the queue: the third is next
    await second.getByTestId('cancel-button').click();
    await expect(second.locator('[data-screen="abandoned"]')).toBeVisible();
    await expect(placeOf(third)).toHaveText(/^You are next in line/, { timeout: PLACE_WITHIN });

    // ---- the history goes (older than the window): so does the estimate, the place stays
    await execute(
      'UPDATE call_reports SET created_at = created_at - ?, agent_answered_at = agent_answered_at - ?, call_ended_at = call_ended_at - ? WHERE call_id LIKE ?',
      [5 * 3600_000, 5 * 3600_000, 5 * 3600_000, `${seeded}-%`],
    );
    await expect(placeOf(third)).toHaveAttribute('data-estimate', '', { timeout: ESTIMATE_WITHIN });
    await expect(placeOf(third)).toHaveText('You are next in line');

    await agent.page.getByTestId('agent-hangup-button').click();
    await third.getByTestId('cancel-button').click();
  } finally {
    await closeAll(testInfo, ...browsers);
    await adminApi('DELETE', `/admin/assignments/${assignmentId}`).catch(() => undefined);
  }
});
