/**
 * Reading the console's queue as a person does: with the mouse wheel over the queue, a view at a time,
 * noting the rows on screen (the queue draws only the rows in view and a few more:
 * features/queue/VirtualList.tsx).
 */
import type { Locator, Page } from '@playwright/test';

/** The count the queue panel shows. */
export async function queueCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('queue-count').locator('[aria-hidden="true"]').textContent());
}

/** The queue's scrolling view (the part of the panel under its head). */
export const queueView = (page: Page): Locator => page.getByTestId('queue-panel').getByTestId('virtual-view');

export interface QueueScreen {
  /** call ids of the rows on screen (inside the view and the window), top to bottom */
  onScreen: string[];
  /** rows in the DOM, on screen or not */
  drawn: number;
  /** the view is scrolled to its end */
  atEnd: boolean;
  /** how far the view is scrolled */
  top: number;
  /** the view's height */
  height: number;
}

/** What the queue shows now (read only: nothing on the page is changed). */
export async function queueScreen(page: Page): Promise<QueueScreen> {
  return queueView(page).evaluate((view) => {
    const frame = view.getBoundingClientRect();
    const rows = [...view.querySelectorAll<HTMLElement>('[data-testid="queue-item"]')];
    const onScreen = rows
      .filter((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > Math.max(frame.top, 0) && r.top < Math.min(frame.bottom, window.innerHeight);
      })
      .map((row) => row.dataset.callId ?? '');
    return {
      onScreen,
      drawn: rows.length,
      atEnd: view.scrollTop + view.clientHeight >= view.scrollHeight - 1,
      top: view.scrollTop,
      height: view.clientHeight,
    };
  });
}

/** two animation frames: the rows of a new scroll position are drawn */
export const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** The mouse over the middle of the queue's view. */
export async function pointAtQueue(page: Page): Promise<void> {
  const box = await queueView(page).boundingBox();
  if (!box) throw new Error('the queue is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

/** Turns the mouse wheel over the queue by `deltaY` px and waits until the queue's rows are drawn. */
export async function wheelQueue(page: Page, deltaY: number): Promise<QueueScreen> {
  await pointAtQueue(page);
  const before = await queueScreen(page);
  await page.mouse.wheel(0, deltaY);
  // the wheel scrolls asynchronously (and smoothly): wait until the position stops moving
  let last = before.top;
  for (let i = 0; i < 50; i++) {
    await nextFrames(page);
    const now = await queueScreen(page);
    if (now.top === last && (now.top !== before.top || i >= 3)) return now;
    last = now.top;
  }
  return queueScreen(page);
}

/**
 * Every call id the queue lists: the wheel over the queue takes it to the top, then on a view at a time
 * (`each` sees every screen on the way); the rows seen on screen are collected.
 */
export async function listedCallIds(page: Page, each?: (screen: QueueScreen) => void): Promise<Set<string>> {
  const seen = new Set<string>();
  let screen = await queueScreen(page);
  while (screen.top > 0) screen = await wheelQueue(page, -Math.max(screen.top, 1000));
  for (;;) {
    each?.(screen);
    for (const id of screen.onScreen) seen.add(id);
    if (screen.atEnd) return seen;
    // a little less than a view: the row cut at the bottom is seen whole on the next screen
    screen = await wheelQueue(page, Math.max(100, screen.height - 60));
  }
}
