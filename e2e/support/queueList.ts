/** Reading the console's queue, which draws only the rows in view (features/queue/VirtualList.tsx). */
import type { Page } from '@playwright/test';

/** The count the queue panel shows. */
export async function queueCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('queue-count').locator('[aria-hidden="true"]').textContent());
}

/**
 * Every call id the queue lists: it is scrolled through a view at a time (the rows in view are drawn
 * before the next frame).
 */
export async function listedCallIds(page: Page): Promise<Set<string>> {
  const ids = await page.getByTestId('queue-panel').locator('ol').evaluate(async (list) => {
    const seen = new Set<string>();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    list.scrollTop = 0;
    for (;;) {
      await frame();
      for (const row of list.querySelectorAll('[data-testid="queue-item"]')) seen.add(row.getAttribute('data-call-id') ?? '');
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) return [...seen];
      list.scrollTop += list.clientHeight;
    }
  });
  return new Set(ids);
}
