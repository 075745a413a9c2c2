/**
 * The website widget on the real stack: a company's website on a second loopback origin
 * embeds Lobby with its one-line script tag; a guest calls through the widget's iframe, an agent answers
 * in the console, media flows both ways, the website hears the call events, and the report records the
 * widget service. A website that the company did not list gets no working widget.
 */
import { expect, test, type Frame, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL } from '../support/api.ts';
import { queryRows } from '../support/db.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { startHostSite, type HostSite, type RecordedEvent } from '../support/widget/hostPage.ts';
import { expectFrameMediaFlowing } from '../support/widget/media.ts';

let site: HostSite;

test.beforeEach(async () => {
  site = await startHostSite();
});

test.afterEach(async () => {
  await site.close();
  await restoreAll();
});

const events = (page: Page) => page.evaluate(() => (window as unknown as { __lobbyEvents: RecordedEvent[] }).__lobbyEvents.map((e) => e));
const eventTypes = async (page: Page) => (await events(page)).map((e) => e.type);

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe[data-testid="lobby-frame"]').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the widget iframe has no frame');
  return frame;
}

test('when a website listed in widgetOrigins embeds the widget and a guest calls through it, then media flows both ways, the website hears the call events and the report says widget', async ({}, testInfo) => {
  await arrangeCompanySettings({ widgetOrigins: [site.origin] });
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-empty')).toBeVisible();

    // the guest visits the company's website: the launcher appears in the company's language
    await guest.page.goto(site.url);
    const launcher = guest.page.getByTestId('lobby-launcher');
    await expect(launcher).toBeVisible();
    await expect(launcher).toHaveText('Call us');
    await launcher.click();

    // the call page opens inside the website, framed from the Lobby origin, with the permissions a call needs
    const iframe = guest.page.locator('iframe[data-testid="lobby-frame"]');
    await expect(iframe).toHaveAttribute('allow', /camera.*microphone.*display-capture.*geolocation/);
    await expect.poll(() => eventTypes(guest.page)).toContain('ready');
    const frame = await widgetFrame(guest.page);
    expect(new URL(frame.url()).origin).toBe(new URL(BASE_URL).origin);
    expect(new URL(frame.url()).searchParams.get('origin')).toBe(site.origin);

    // the website's JavaScript API reaches the call page: language, both ways
    await guest.page.evaluate(() => (window as unknown as { Lobby?: { setLanguage(language: string): void } }).Lobby?.setLanguage('ar'));
    await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(launcher).toHaveText('إغلاق'); // under the open panel the launcher closes it, and says so
    await guest.page.evaluate(() => (window as unknown as { Lobby?: { setLanguage(language: string): void } }).Lobby?.setLanguage('en'));
    await expect(frame.locator('html')).toHaveAttribute('dir', 'ltr');

    // the guest calls through the widget
    await frame.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await frame.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(frame.locator('[data-screen="waiting"]')).toBeVisible();
    await expect.poll(() => eventTypes(guest.page)).toContain('callStarted');

    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    const callId = (await item.getAttribute('data-call-id')) ?? '';
    expect(callId).toMatch(/^g[0-9a-f]{16}--[a-z0-9]+$/);
    await item.getByTestId('answer-button').click();

    await expect(frame.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect.poll(() => eventTypes(guest.page)).toContain('callAnswered');
    await expectFrameMediaFlowing(frame, 'guest (widget iframe)');
    await expectMediaFlowing(agent.page, 'agent');
    await screenshot(guest.page, testInfo, 'widget-guest-ongoing');

    const [report] = await queryRows<{ service_type: string | null; source: string }>('select service_type, source from call_reports where call_id = ?', [callId]);
    expect(report).toMatchObject({ service_type: 'widget', source: 'site' });

    // the agent hangs up: the website hears that the call ended, after it was answered
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(frame.locator('[data-screen="abandoned"], [data-screen="rating"]')).toBeVisible();
    await expect.poll(async () => (await events(guest.page)).find((e) => e.type === 'callEnded')?.detail).toMatchObject({ answered: true });
    const order = (await eventTypes(guest.page)).filter((t) => t.startsWith('call'));
    expect(order).toEqual(['callStarted', 'callAnswered', 'callEnded']);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when a website is not listed in widgetOrigins, then it gets no launcher, the browser console and lobby:error say why, and the call page refuses to be framed by it', async ({}, testInfo) => {
  await arrangeCompanySettings({ widgetOrigins: ['http://127.0.0.1:1'] });
  const guest = await launchParticipant('guest');
  const consoleErrors: string[] = [];
  guest.page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  try {
    // the call page's header names only the website asking, and only when it is listed: never the list
    const response = await fetch(`${BASE_URL}/?service=widget&origin=${encodeURIComponent(site.origin)}`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/frame-ancestors 'self'(;|$)/);
    expect(csp).not.toContain('http://127.0.0.1:1');
    expect(csp).not.toContain(site.origin);

    await guest.page.goto(site.url);
    const why = `${site.origin} is not in the company’s widget origins (widgetOrigins)`;
    await expect.poll(() => events(guest.page)).toContainEqual({ type: 'error', detail: { reason: 'notAllowed', message: why }, page: '/host.html' });
    // the loader's own words, not the browser's CORS error
    expect(consoleErrors).toContainEqual(`Lobby widget: no call button on ${site.origin}: ${why}`);
    expect(consoleErrors.join('\n')).not.toMatch(/CORS policy/);
    await expect(guest.page.getByTestId('lobby-launcher')).toHaveCount(0);
    expect(await guest.page.evaluate(() => typeof (window as unknown as { Lobby?: unknown }).Lobby)).toBe('undefined');

    // framing the call page by hand does not work either: the browser refuses it (frame-ancestors)
    await guest.page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.id = 'by-hand';
      frame.src = src;
      document.body.append(frame);
    }, `${BASE_URL}/?service=widget&origin=${encodeURIComponent(site.origin)}`);
    const handle = await guest.page.locator('#by-hand').elementHandle();
    const frame = await handle?.contentFrame();
    await expect.poll(() => frame?.url() ?? '').toMatch(/^chrome-error:/);
    await expect(guest.page.frameLocator('#by-hand').locator('[data-screen]')).toHaveCount(0);
    await screenshot(guest.page, testInfo, 'widget-refused');
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the website is on a small screen, then the widget opens the call page in a new window that still talks to the website', async ({}, testInfo) => {
  await arrangeCompanySettings({ widgetOrigins: [site.origin] });
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    await guest.page.goto(site.url);
    const [popup] = await Promise.all([guest.context.waitForEvent('page'), guest.page.getByTestId('lobby-launcher').click()]);
    await popup.waitForLoadState('domcontentloaded');
    expect(new URL(popup.url()).origin).toBe(new URL(BASE_URL).origin);
    expect(new URL(popup.url()).searchParams.get('service')).toBe('widget');
    await expect(guest.page.locator('iframe[data-testid="lobby-frame"]')).toHaveCount(0);
    // the new window kept its opener (COOP unsafe-none for widget pages) and said ready to the website only
    await expect.poll(() => eventTypes(guest.page)).toEqual(expect.arrayContaining(['open', 'ready']));
    expect((await events(guest.page)).find((e) => e.type === 'open')?.detail).toEqual({ mode: 'window' });
    await guest.page.evaluate(() => (window as unknown as { Lobby?: { setLanguage(language: string): void } }).Lobby?.setLanguage('ar'));
    await expect(popup.locator('html')).toHaveAttribute('dir', 'rtl');
    await screenshot(popup, testInfo, 'widget-window');
  } finally {
    await closeAll(testInfo, guest);
  }
});
