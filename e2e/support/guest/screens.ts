/** Looking at a guest screen: where it is, a screenshot for people, and axe for everybody. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { screenshot } from '../journey.ts';

export const PHONE = { width: 390, height: 844 };
export const LAPTOP = { width: 1280, height: 800 };

/** The screen is shown (not loading), in the right language and direction. */
export async function expectScreen(page: Page, name: string, language: 'en' | 'ar' = 'en'): Promise<void> {
  await expect(page.locator(`[data-screen="${name}"]`)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await testInfo.attach(`axe-${label}`, {
    body: JSON.stringify(results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })), null, 2),
    contentType: 'application/json',
  });
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${label}`).toEqual([]);
}

/** Finite CSS animations (a card fading in) have finished: screenshots and contrast checks see the end state. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Screenshot and axe in one go. */
export async function record(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await settled(page);
  await screenshot(page, testInfo, name);
  await expectAccessible(page, testInfo, name);
}
