/**
 * Diagnostics (docs/operations.md §13): with a DSN configured for the deployment (LOBBY_SENTRY_DSN), an
 * error in the guest page reaches a Sentry-compatible server (a test double: a plain node HTTP server
 * that keeps the envelopes) with a replay of the session and the documented sampling, while known noise stays
 * home; the SDK loads only after the first render. With no DSN nothing leaves the page's origin. Either
 * way the page prints nothing: its console output is kept in the 110-entry buffer.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { closeAll } from '../support/journey.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { LAPTOP, expectScreen, record } from '../support/guest/screens.ts';
import {
  recordingEvents,
  startSentryIngest,
  type EnvelopeItem,
  type SentryIngest,
} from '../support/sentryIngest.ts';
import { restartServer } from '../support/stack.ts';

const THROWN = 'diagnostics e2e: thrown in the guest page';

let browsers: LaunchedBrowser[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  await restoreAll();
});

/** Throws `message` from a task of the page (an uncaught error, as a bug would). */
async function throwInPage(page: Page, message: string): Promise<void> {
  await page.evaluate((m) => {
    setTimeout(() => {
      throw new Error(m);
    });
  }, message);
}

function exceptionText(item: EnvelopeItem): string {
  const values =
    (item.json?.exception as { values?: Array<{ type?: string; value?: string }> } | undefined)?.values ?? [];
  return values.map((v) => `${v.type ?? ''}: ${v.value ?? ''}`).join('\n');
}

test.describe('with a DSN', () => {
  let ingest: SentryIngest;
  test.beforeAll(async () => {
    ingest = await startSentryIngest();
    await restartServer('server', { LOBBY_SENTRY_DSN: ingest.dsn });
  });
  test.afterAll(async () => {
    await restartServer('server'); // the stack as it was: no DSN
    await ingest.close();
  });

  test('when an error is thrown in the guest page, then the Sentry-compatible server receives it with a replay sampled as documented, and noise is not sent', async ({}, testInfo) => {
    await arrangeCompanySettings({ previewScreen: false });
    const guest = await launchParticipant('guest-reporting', { viewport: LAPTOP });
    browsers.push(guest);
    const printed: string[] = [];
    guest.page.on('console', (m) => printed.push(`${m.type()} ${m.text()}`));

    // arrange: the selection screen, then the SDK started (after the first render, when the page was idle)
    await guest.page.goto('/');
    await expectScreen(guest.page, 'selection');
    await expect(guest.page.locator('html[data-error-reporting="on"]')).toBeAttached();
    const timing = await guest.page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      sdk:
        performance.getEntriesByType('resource').find((e) => /\/assets\/sentry-[^/]+\.js$/.test(e.name))
          ?.startTime ?? -1,
    }));
    expect(timing.paint, 'the page painted').toBeGreaterThan(0);
    expect(timing.sdk, 'the SDK chunk is requested only after the first paint').toBeGreaterThan(timing.paint);

    // act: known noise first (the ignore list), then a real fault
    await throwInPage(guest.page, 'ResizeObserver loop completed with undelivered notifications.');
    await throwInPage(guest.page, THROWN);

    // assert: the fault arrives as an error event linked to a replay of the session
    await expect
      .poll(
        () => ingest.items.filter((i) => i.type === 'event' && exceptionText(i).includes(THROWN)).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    const event = ingest.items.find((i) => i.type === 'event' && exceptionText(i).includes(THROWN))!;
    expect((event.json?.sdk as { name?: string }).name).toBe('sentry.javascript.browser');
    expect(event.json?.user, 'nothing that identifies the guest (dataCollection)').toBeUndefined();
    const eventId = String(event.json?.event_id);
    // a replay of the session is sent with it, naming the error (100 % of sessions with an error)
    const replayOf = () =>
      ingest.items.find(
        (i) => i.type === 'replay_event' && (i.json?.error_ids as string[] | undefined)?.includes(eventId),
      );
    await expect.poll(() => Boolean(replayOf()), { timeout: 30_000 }).toBe(true);
    expect(['buffer', 'session']).toContain(replayOf()?.json?.replay_type);

    // assert: the replay's recording carries the documented sampling and masks text, inputs and media
    const recording = ingest.items.find((i) => i.type === 'replay_recording');
    expect(recording, 'a replay recording arrived').toBeTruthy();
    const options = recordingEvents(recording!).find((e) => e.data?.tag === 'options')?.data?.payload;
    expect(options).toMatchObject({
      sessionSampleRate: 0.1,
      errorSampleRate: 1,
      maskAllText: true,
      maskAllInputs: true,
      blockAllMedia: true,
    });

    // assert: the noise never left; the page printed nothing (the SDK included)
    expect(ingest.items.some((i) => exceptionText(i).includes('ResizeObserver'))).toBe(false);
    expect(printed.filter((line) => !line.includes(THROWN) && !line.includes('ResizeObserver'))).toEqual([]);
    await record(guest.page, testInfo, 'reporting-selection');
  });
});

test('when the deployment has no DSN, then no request leaves the page origin, the SDK never loads, and the page prints nothing', async ({}, testInfo) => {
  await arrangeCompanySettings({ previewScreen: true, callType: 'userSelect' });
  const guest = await launchParticipant('guest-no-dsn', { viewport: LAPTOP });
  browsers.push(guest);
  const urls: string[] = [];
  guest.context.on('request', (r) => urls.push(r.url()));
  const printed: string[] = [];
  guest.page.on('console', (m) => printed.push(`${m.type()} ${m.text()}`));

  // act: preview, selection, an error, then the page left idle for a while
  await guest.page.goto('/');
  await expectScreen(guest.page, 'preview');
  await guest.page.getByTestId('continue-button').click();
  await expectScreen(guest.page, 'selection');
  await throwInPage(guest.page, THROWN);
  await guest.page.evaluate(() => console.warn('e2e probe: kept, not printed'));
  await guest.page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 2000), { timeout: 3000 })),
  );

  // assert: every request went to the page's own origin (or stayed in the browser), none for the SDK
  const origin = new URL(guest.page.url()).origin;
  const elsewhere = urls.filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u));
  expect(elsewhere).toEqual([]);
  expect(urls.filter((u) => /sentry/i.test(u))).toEqual([]);
  await expect(guest.page.locator('html[data-error-reporting]')).toHaveCount(0);

  // assert: nothing printed, the probe and the error's trail are in the buffer instead
  expect(printed.filter((line) => !line.includes(THROWN))).toEqual([]);
  const kept = await guest.page.evaluate(() =>
    (window as unknown as { __lobbyConsole: () => Array<{ text: string }> })
      .__lobbyConsole()
      .map((e) => e.text),
  );
  expect(kept).toContain('e2e probe: kept, not printed');
  await record(guest.page, testInfo, 'no-dsn-selection');
});
