/**
 * A wrong appointment link (/appointment/NO-SUCH-REF) once said "The connection was lost.
 * Check your internet connection". It has its own screen: the link is unknown, what to do, and a way to
 * call without an appointment — in English and in Arabic.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { closeAll } from '../support/journey.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { PHONE, expectScreen, record } from '../support/guest/screens.ts';

let browser: LaunchedBrowser | null = null;
test.afterEach(async ({}, testInfo) => {
  if (browser) await closeAll(testInfo, browser);
  browser = null;
  await restoreAll();
});

for (const { setting, lang, title } of [
  { setting: 'english', lang: 'en', title: 'This appointment link is not valid' },
  { setting: 'arabic', lang: 'ar', title: 'رابط الموعد هذا غير صالح' },
] as const) {
  test(`when a guest opens an appointment link that names no appointment (${setting}), then it is told the link is not valid and can call without one`, async ({}, testInfo) => {
    await arrangeCompanySettings({ language: setting, previewScreen: false });
    browser = await launchParticipant('guest-unknown-appointment', { viewport: PHONE });
    const { page } = browser;

    // act: the link, then Call (the lookup runs when the guest's session starts)
    await page.goto('/appointment/NO-SUCH-REF');
    const call = page.locator('[data-testid="call-button"][data-call-kind="video"]');
    const abandoned = page.locator('[data-screen="abandoned"]');
    await expect(call.or(abandoned)).toBeVisible();
    // The lookup may answer between the check and the click: the Call button then leaves for the
    // abandoned screen, which is what this test waits for next, so a click that finds no button then is fine.
    if (await call.isVisible()) {
      await call.click({ timeout: 5_000 }).catch(async (error: unknown) => {
        if (!(await abandoned.isVisible())) throw error;
      });
    }

    // assert: its own screen, not a connection failure
    await expectScreen(page, 'abandoned', lang);
    await expect(abandoned.locator('[data-end-reason]')).toHaveAttribute(
      'data-end-reason',
      'unknownAppointment',
    );
    await expect(abandoned.getByRole('heading')).toHaveText(title);
    await record(page, testInfo, `guest-unknown-appointment-${lang}`);

    // act: call without an appointment
    await page.getByTestId('call-without-appointment').click();

    // assert: the ordinary call page
    await expectScreen(page, 'selection', lang);
    expect(new URL(page.url()).pathname).toBe('/');
  });
}
