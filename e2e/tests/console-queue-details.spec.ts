/**
 * What the agent sees of a waiting guest and writes after the call: the admin builds a welcome
 * form, the guest fills it in and shares the position the company asks for, then calls; the agent's queue
 * entry shows the answers, the position and since when the guest waits (by keyboard, in English and
 * Arabic); after the call the agent writes a note, stored on the report and shown on the admin's Reports.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { DEMO_ADMIN, consoleLogin, BASE_URL } from '../support/api.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { arrangeCompanySettings, arrangeZone, restoreAll } from '../support/guest/arrange.ts';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';

const RIYADH = { lat: 24.7136, lng: 46.6753 };

/** axe on the queue entry's details (this journey's part of the page): no serious or critical violation. */
async function expectDetailsAccessible(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include('[data-testid="queue-details"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await testInfo.attach(`axe-${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${label}`).toEqual([]);
}

let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  // the welcome form built below goes again, so that other journeys see no form
  const cookie = await consoleLogin(DEMO_ADMIN);
  const forms = await fetch(`${BASE_URL}/api/admin/forms`, { headers: { cookie } });
  const { data } = (await forms.json()) as { data: { forms: Array<{ id: number; kind: string }> } };
  for (const f of data.forms.filter((x) => x.kind === 'welcome')) {
    await fetch(`${BASE_URL}/api/admin/forms/${f.id}`, { method: 'DELETE', headers: { cookie } });
  }
  await restoreAll();
});

test("when a guest fills the welcome form and shares the position, then the agent's queue entry shows them, and the note after the call reaches the reports", async ({}, testInfo) => {
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  const agent = await launchParticipant('agent', { viewport: { width: 1280, height: 800 } });
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  browsers.push(admin, agent, guest);

  // arrange: the admin builds the welcome form (form builder); the company asks for the position
  await arrangeCompanySettings({ welcomeForm: false, requestLocation: false, locationOfService: null });
  await agentSignsIn(admin.page, DEMO_ADMIN);
  await admin.page.goto('/console/admin/forms');
  const editor = admin.page.getByTestId('form-editor-welcome');
  await editor.getByTestId('form-title').fill('Before we call');
  await editor.getByTestId('add-field').click();
  await editor.getByTestId('add-field').click();
  const [nameField, emailField] = [editor.getByTestId('form-field').nth(0), editor.getByTestId('form-field').nth(1)];
  await nameField.getByTestId('field-label').fill('Full name');
  await nameField.locator('input[id$="-label-ar"]').fill('الاسم الكامل');
  await nameField.getByTestId('field-required').check();
  await emailField.getByTestId('field-label').fill('Email');
  await emailField.locator('input[id$="-label-ar"]').fill('البريد الإلكتروني');
  await emailField.getByTestId('field-type').selectOption('email');
  await editor.getByTestId('form-in-use').check();
  await editor.getByTestId('form-save').click();
  await expect(editor.getByTestId('form-message')).toHaveText('Saved. The guest page uses it now.');
  await arrangeZone(RIYADH, 5000);
  await arrangeCompanySettings({
    requestLocation: true,
    locationOfService: { type: 'Polygon', coordinates: [[[46.6, 24.6], [46.8, 24.6], [46.8, 24.8], [46.6, 24.8], [46.6, 24.6]]] },
  });
  await agentSignsIn(agent.page);

  // act: the guest (in Riyadh) fills the form and calls
  await guest.context.grantPermissions(['geolocation']);
  await guest.context.setGeolocation({ latitude: RIYADH.lat, longitude: RIYADH.lng });
  await guest.page.goto('/');
  const form = guest.page.getByTestId('welcome-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Full name').fill('Mona Haddad');
  await form.getByLabel('Email').fill('mona@example.com');
  await guest.page.getByTestId('welcome-form-submit').click();
  await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();

  // assert: the agent reaches the entry's details by keyboard and reads the answers and the position
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  const callId = (await item.getAttribute('data-call-id')) ?? '';
  // the agent sees the guest by the name it gave in the welcome form, not by its username
  await expect(item).toContainText('Mona Haddad');
  await item.getByTestId('answer-button').focus();
  await agent.page.keyboard.press('Tab');
  const toggle = item.getByTestId('queue-details-toggle');
  await expect(toggle).toBeFocused();
  await expect(toggle).toContainText('2 answers');
  await agent.page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const answers = item.getByTestId('queue-answer');
  await expect(answers).toHaveCount(2);
  await expect(answers.nth(0)).toHaveText(/Full name\s*Mona Haddad/);
  await expect(answers.nth(1)).toHaveText(/Email\s*mona@example\.com/);
  await expect(item.getByTestId('queue-location')).toContainText('24.7136, 46.6753');
  await expect(item.getByTestId('queue-location').getByRole('link')).toHaveAttribute('href', /openstreetmap\.org\/\?mlat=24\.7136&mlon=46\.6753/);
  await expect(item.getByTestId('queue-details-since')).not.toBeEmpty();
  await screenshot(agent.page, testInfo, 'console-queue-details-en');
  await expectDetailsAccessible(agent.page, testInfo, 'console-queue-details-en');

  // in Arabic: the form's Arabic labels, right to left
  await agent.page.getByTestId('language-switch').locator('[data-language="ar"]').click();
  await expect(agent.page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(toggle).toContainText('التفاصيل');
  await expect(answers.nth(0)).toHaveText(/الاسم الكامل\s*Mona Haddad/);
  await expect(item.getByTestId('queue-location')).toContainText('الموقع');
  await screenshot(agent.page, testInfo, 'console-queue-details-ar');
  await expectDetailsAccessible(agent.page, testInfo, 'console-queue-details-ar');
  await agent.page.getByTestId('language-switch').locator('[data-language="en"]').click();

  // the position is stored with the call
  const [report] = await queryRows<{ latitude: string; longitude: string }>('select latitude, longitude from call_reports where call_id = ?', [callId]);
  expect(report).toEqual({ latitude: '24.7136', longitude: '46.6753' });

  // act: the agent answers, then ends the call and writes the note after it
  await item.getByTestId('answer-button').click();
  await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await agent.page.getByTestId('agent-hangup-button').click();
  const wrapUp = agent.page.getByTestId('wrap-up');
  await expect(wrapUp).toBeVisible();
  await expect(wrapUp).toHaveAttribute('data-call-id', callId);
  await expect(agent.page.getByTestId('wrap-up-note')).toBeFocused();
  await agent.page.keyboard.type('Wants a callback about the card limit on Sunday.');
  await screenshot(agent.page, testInfo, 'console-wrap-up-en');
  await agent.page.getByTestId('wrap-up-save').click();
  await expect(agent.page.getByTestId('wrap-up-saved')).toBeVisible();

  // assert: stored on the report, and on the admin's Reports with the call
  const [noted] = await queryRows<{ agent_note: string }>('select agent_note from call_reports where call_id = ?', [callId]);
  expect(noted?.agent_note).toBe('Wants a callback about the card limit on Sunday.');
  await admin.page.goto('/console/reports');
  const row = admin.page.locator(`[data-testid="recent-call"][data-call-id="${callId}"]`);
  await expect(row.getByTestId('recent-call-note')).toContainText('Wants a callback about the card limit on Sunday.');
  // the guest is named as the queue named it (the welcome form's name), and the agent who answered
  await expect(row.getByTestId('recent-call-guest')).toHaveText('Mona Haddad');
  await screenshot(admin.page, testInfo, 'console-reports-notes');
});
