/**
 * An unknown address once showed raw JSON. A person who opens one gets the guest app's
 * not-found screen in the company's look (status 404), in English and in Arabic, with a way home.
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

for (const { setting, lang } of [
  { setting: 'english', lang: 'en' },
  { setting: 'arabic', lang: 'ar' },
] as const) {
  test(`when a guest opens an address that does not exist (${setting}), then a not-found page in the company's look takes it home`, async ({}, testInfo) => {
    await arrangeCompanySettings({ language: setting, previewScreen: false });
    browser = await launchParticipant('guest-not-found', { viewport: PHONE });
    const { page } = browser;

    const response = await page.goto('/nosuchpage');

    expect(response?.status()).toBe(404);
    await expectScreen(page, 'not-found', lang);
    await expect(page).toHaveTitle(/Lobby Demo/); // the company's details are loaded: its name, language, look
    expect(await page.locator('body').innerText()).not.toContain('"statusCode"');
    await record(page, testInfo, `guest-not-found-${lang}-phone`);
    await page.locator('[data-screen="not-found"] a[href="/"]').click();
    await expectScreen(page, 'selection', lang);
  });
}
