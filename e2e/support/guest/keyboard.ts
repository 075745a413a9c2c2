/** Moving through a page with the keyboard only, as a person without a mouse does. */
import { expect, type Page } from '@playwright/test';

/** Presses Tab until the focused element matches `selector` (fails after `max` presses). */
export async function tabTo(page: Page, selector: string, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing');
  expect(focused, `Tab never reached ${selector}`).toBe(selector);
}

/** The focused element shows a visible focus indicator (outline or box-shadow). */
export async function expectVisibleFocus(page: Page): Promise<void> {
  const style = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return null;
    const s = getComputedStyle(el);
    const parent = el.parentElement ? getComputedStyle(el.parentElement) : null;
    return { outline: s.outlineStyle !== 'none' && s.outlineWidth !== '0px', shadow: s.boxShadow !== 'none', parentOutline: !!parent && parent.outlineStyle !== 'none' && parent.outlineWidth !== '0px' };
  });
  expect(style && (style.outline || style.shadow || style.parentOutline), 'a visible focus indicator').toBeTruthy();
}
