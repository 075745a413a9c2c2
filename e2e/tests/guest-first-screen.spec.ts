/**
 * The guest's first screen sent in the page (docs/architecture.md "The guest page"): the server renders the
 * selection screen into `/`, so a browser that runs no script at all already shows the company's heading
 * and call button; with scripts the app takes that markup over (hydration): no error, nothing moves, and
 * the call button calls.
 */
import { expect, test, type Page } from '@playwright/test';
import { keptConsole, screenshot } from '../support/journey.ts';
import { arrangeCompanySettings } from '../support/guest/arrange.ts';
import { browsersPerTest } from '../support/guest/browsers.ts';
import { PHONE, expectScreen, record, settled } from '../support/guest/screens.ts';

test.use({ trace: 'off' });

const browsers = browsersPerTest();
const guest = (options: { javaScriptEnabled?: boolean } = {}) => browsers.open({ viewport: PHONE, ...options });

/**
 * Before the page's own scripts: the sum of its layout shifts (`layout-shift` entries, buffered from the
 * first paint), and the first heading the parser inserted, to tell a hydrated page from one rendered anew.
 */
const WATCH_THE_PAGE = `
  window.__shifts = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver((records, observer) => {
    const heading = document.querySelector('#root h1');
    if (heading) { window.__firstHeading = heading; observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
`;

/** React holds the element (its hydration attached its fiber): the app has taken the screen over. */
async function takenOver(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => {
    const element = document.querySelector(s);
    return !!element && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
  }, selector);
}

for (const { setting, lang } of [
  { setting: 'english', lang: 'en' },
  { setting: 'arabic', lang: 'ar' },
] as const) {
  test.describe(`in ${setting}`, () => {
    test.beforeEach(async () => {
      await arrangeCompanySettings({ language: setting, previewScreen: false, requestLocation: false, welcomeForm: false, schedule: null });
    });

    test('when the page runs no script, then the company\'s heading and call button are already there', async ({}, testInfo) => {
      const { page } = await guest({ javaScriptEnabled: false });
      const response = await page.goto('/');
      expect(response?.headers()['cache-control']).toBe('no-cache');
      await expectScreen(page, 'selection', lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby Demo');
      await expect(page.getByTestId('call-button').first()).toBeVisible();
      await expect(page.getByTestId('assignment-option').first()).toBeVisible();
      await expect(page.locator('[data-screen="loading"]')).toHaveCount(0);
      await screenshot(page, testInfo, `first-screen-no-script-${lang}`);
    });

    test('when the app takes the page over, then no error, no layout shift, and the call button calls', async ({}, testInfo) => {
      const { page, context, log } = await guest();
      await context.addInitScript(WATCH_THE_PAGE);
      const detailsAsked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/company/details')) detailsAsked.push(request.url());
      });
      await page.goto('/');
      await expectScreen(page, 'selection', lang);
      await takenOver(page, '[data-testid="call-button"]');
      await settled(page);
      // the heading the server sent is the one on screen: hydrated in place, not replaced
      expect(await page.evaluate(() => (window as unknown as { __firstHeading?: Element }).__firstHeading === document.querySelector('#root h1'))).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(0);
      // the page carried the details: the app asked for none
      expect(detailsAsked).toEqual([]);
      await record(page, testInfo, `first-screen-taken-over-${lang}`);
      const errors = [
        ...log.filter((line) => / (error|pageerror) /.test(line)),
        ...(await keptConsole(page)).filter((entry) => entry.level === 'error' || /hydrat/i.test(entry.text)).map((entry) => entry.text),
      ];
      expect(errors).toEqual([]);

      await page.getByTestId('assignment-option').first().click();
      await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
      await expectScreen(page, 'waiting', lang);
      await page.getByTestId('cancel-button').click();
      await expect(page.locator('[data-screen="abandoned"]')).toBeVisible();
    });
  });
}

test('when the company shows the preview first, then the page carries it, and the app starts its camera and goes on to selection', async ({}, testInfo) => {
  await arrangeCompanySettings({ language: 'english', previewScreen: true, requestLocation: false, welcomeForm: false, schedule: null });
  const bare = await guest({ javaScriptEnabled: false });
  await bare.page.goto('/');
  await expectScreen(bare.page, 'preview', 'en');
  await expect(bare.page.getByTestId('continue-button')).toBeVisible();
  await screenshot(bare.page, testInfo, 'first-screen-preview-no-script-en');

  const { page, log } = await guest();
  await page.goto('/');
  await expectScreen(page, 'preview', 'en');
  await takenOver(page, '[data-testid="continue-button"]');
  // the camera shows in the server's tile, now the app's
  await expect(page.getByTestId('local-video')).toHaveAttribute('data-has-video', 'true');
  await settled(page);
  await screenshot(page, testInfo, 'first-screen-preview-taken-over-en');
  const errors = [...log.filter((line) => / (error|pageerror) /.test(line)), ...(await keptConsole(page)).filter((entry) => entry.level === 'error').map((entry) => entry.text)];
  expect(errors).toEqual([]);
  await page.getByTestId('continue-button').click();
  await expectScreen(page, 'selection', 'en');
});

test('when the guest chose another language before, then the app shows it in that language, without an error', async () => {
  await arrangeCompanySettings({ language: 'multilingual', previewScreen: false, requestLocation: false, welcomeForm: false, schedule: null });
  const { page, context, log } = await guest();
  await context.addInitScript(() => localStorage.setItem('lobby.language', 'ar'));
  await page.goto('/');
  await expectScreen(page, 'selection', 'ar');
  await expect(page.locator('[data-call-kind="video"]')).toContainText('بدء');
  const errors = [...log.filter((line) => / (error|pageerror) /.test(line)), ...(await keptConsole(page)).filter((entry) => entry.level === 'error').map((entry) => entry.text)];
  expect(errors).toEqual([]);
});
