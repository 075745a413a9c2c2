/** The guest browsers a test file opens: each closed after its test (its logs kept), and the company restored. */
import { test } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../browser.ts';
import { closeAll } from '../journey.ts';
import { restoreAll } from './arrange.ts';

export interface OpenedBrowsers {
  /** a guest's browser (or another participant's, by `tag`), closed after the test */
  open(options?: Parameters<typeof launchParticipant>[1], tag?: string): Promise<LaunchedBrowser>;
  /** a browser launched otherwise, closed after the test with the others */
  keep(browser: LaunchedBrowser): void;
}

/** Call once at the top of a test file: registers the afterEach that closes and restores. */
export function browsersPerTest(): OpenedBrowsers {
  let browsers: LaunchedBrowser[] = [];
  test.afterEach(async ({}, testInfo) => {
    await closeAll(testInfo, ...browsers);
    browsers = [];
    await restoreAll();
  });
  return {
    async open(options = {}, tag = 'guest') {
      const launched = await launchParticipant(tag, options);
      browsers.push(launched);
      return launched;
    },
    keep(browser) {
      browsers.push(browser);
    },
  };
}
