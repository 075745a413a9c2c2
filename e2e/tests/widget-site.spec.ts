/**
 * The widget as a site owner installs it (docs/widget.md): the snippet included twice, the website's own
 * Content-Security-Policy (the recipe of docs/widget.md "Content Security Policy", and a policy that
 * refuses the frame), the events the website receives when the call page goes away (its new window
 * closed, its panel closed), the call carried to the website's next page when the visitor follows a
 * link (waiting and answered), and the panel's corner when the website turns to Arabic.
 */
import { expect, test, type Frame, type Page } from '@playwright/test';
import { BASE_URL } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { expectAccessible, PHONE } from '../support/guest/screens.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { expectFrameMediaFlowing } from '../support/widget/media.ts';
import { startHostSite, type HostSite, type HostSiteOptions, type RecordedEvent } from '../support/widget/hostPage.ts';

const LOBBY = new URL(BASE_URL).origin;
let site: HostSite | null = null;

async function openSite(options: HostSiteOptions = {}): Promise<HostSite> {
  site = await startHostSite('127.0.0.1', options);
  // a colour of the company's own, to see whether the launcher got its styles
  await arrangeCompanySettings({ widgetOrigins: [site.origin], categoryBackgroundColor: '#0a5c36', categoryTextColor: '#ffffff' });
  return site;
}

test.afterEach(async () => {
  await site?.close();
  site = null;
  await restoreAll();
});

const events = (page: Page) => page.evaluate(() => (window as unknown as { __lobbyEvents: RecordedEvent[] }).__lobbyEvents.map((e) => e));
const eventTypes = async (page: Page) => (await events(page)).map((e) => e.type);
const consoleErrorsOf = (page: Page): string[] => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
};

async function widgetFrame(page: Page): Promise<Frame> {
  // the events of every page of the visit are kept: this page's call page must have said ready
  const here = new URL(page.url()).pathname;
  await expect.poll(async () => (await events(page)).some((e) => e.type === 'ready' && e.page === here)).toBe(true);
  const handle = await page.locator('iframe[data-testid="lobby-frame"]').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the widget iframe has no frame');
  return frame;
}

test('when a page includes the snippet twice, then it has one launcher and one lobby:load; the open panel stays in its corner when the website turns to Arabic, under a launcher that says it closes', async ({}, testInfo) => {
  const host = await openSite({ snippets: 2 });
  const guest = await launchParticipant('guest');
  try {
    await guest.page.goto(host.url);
    await guest.page.waitForLoadState('load'); // both async copies have run by then
    const launcher = guest.page.getByTestId('lobby-launcher');
    await expect(launcher).toHaveText('Call us');
    await expect(guest.page.locator('[data-lobby-widget]')).toHaveCount(1);
    expect((await eventTypes(guest.page)).filter((t) => t === 'load')).toHaveLength(1);

    await launcher.click();
    const panel = guest.page.getByTestId('lobby-panel');
    await expect(panel).toBeVisible();
    const frame = await widgetFrame(guest.page);
    await expect(launcher).toHaveText('Close');
    // the company's brand once: the call page's, not again in the panel's bar
    await expect(frame.getByText('Lobby Demo', { exact: true })).toHaveCount(1);
    await expect(panel.locator('.title')).toHaveText('');
    // the website has not chosen a language yet: the call page offers its switch
    await expect(frame.getByTestId('language-switch')).toBeVisible();
    const before = await panel.boundingBox();
    await guest.page.evaluate(() => (window as unknown as { Lobby: { setLanguage(language: string): void } }).Lobby.setLanguage('ar'));
    await expect(launcher).toHaveText('إغلاق');
    await expect(guest.page.locator('[data-lobby-widget]')).toHaveAttribute('dir', 'rtl');
    await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
    // the website chose the language: no switch in the call page to contradict it
    await expect(frame.getByTestId('language-switch')).toHaveCount(0);
    expect(await panel.boundingBox()).toEqual(before);
    // the panel's bar reads right to left: Close at its start (the left), ↗ after it
    const closeBox = await panel.getByRole('button', { name: 'إغلاق' }).boundingBox();
    const moveBox = await panel.getByRole('button', { name: 'فتح في نافذة جديدة' }).boundingBox();
    expect(closeBox!.x).toBeLessThan(moveBox!.x);
    await screenshot(guest.page, testInfo, 'widget-arabic-same-corner');
    await expectAccessible(guest.page, testInfo, 'widget-panel-arabic');

    // the launcher does what it says
    await launcher.click();
    await expect(panel).toBeHidden();
    await expect(launcher).toHaveText('اتصل بنا');
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the website follows docs/widget.md\u2019s CSP recipe with style-src \'self\', then the launcher keeps its styles and the call page opens in the panel', async ({}, testInfo) => {
  const host = await openSite({
    // the recipe, plus 'unsafe-inline' scripts for the test page's own event recorder
    csp: `default-src 'self'; script-src 'self' 'unsafe-inline' ${LOBBY}; connect-src 'self' ${LOBBY}; frame-src ${LOBBY}; style-src 'self'`,
  });
  const guest = await launchParticipant('guest');
  const errors = consoleErrorsOf(guest.page);
  try {
    await guest.page.goto(host.url);
    const launcher = guest.page.getByTestId('lobby-launcher');
    await expect(launcher).toHaveText('Call us');
    // the company's colours and the launcher's shape: the website's style-src did not take them away
    await expect(launcher).toHaveCSS('background-color', 'rgb(10, 92, 54)');
    await expect(launcher).toHaveCSS('border-radius', '24px');
    await screenshot(guest.page, testInfo, 'widget-csp-launcher');
    await launcher.click();
    const frame = await widgetFrame(guest.page);
    await expect(frame.getByTestId('assignment-option').first()).toBeVisible();
    await screenshot(guest.page, testInfo, 'widget-csp-panel');
    expect(errors.filter((e) => /Content Security Policy|Content-Security-Policy/.test(e))).toEqual([]);
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the website\u2019s CSP refuses the frame (frame-src \'none\'), then the panel offers the new window at once and the console names the directive', async ({}, testInfo) => {
  const host = await openSite({ csp: "frame-src 'none'" });
  const guest = await launchParticipant('guest');
  const errors = consoleErrorsOf(guest.page);
  try {
    await guest.page.goto(host.url);
    await guest.page.getByTestId('lobby-launcher').click();
    // at once: well before the 8 s a silent frame is given
    await expect(guest.page.getByTestId('lobby-open-window')).toBeVisible({ timeout: 4000 });
    expect(errors).toContainEqual(`Lobby widget: this website's Content-Security-Policy (frame-src) refuses ${LOBBY}: add it to frame-src`);
    await screenshot(guest.page, testInfo, 'widget-csp-frame-refused');
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the website\u2019s CSP refuses to connect to Lobby, then the console and lobby:error name connect-src', async ({}, testInfo) => {
  const host = await openSite({ csp: `default-src 'self'; script-src 'self' 'unsafe-inline' ${LOBBY}` });
  const guest = await launchParticipant('guest');
  const errors = consoleErrorsOf(guest.page);
  try {
    await guest.page.goto(host.url);
    const why = `this website's Content-Security-Policy (connect-src) refuses ${LOBBY}: add it to connect-src`;
    await expect.poll(() => events(guest.page)).toContainEqual({ type: 'error', detail: { reason: 'notAllowed', message: why }, page: '/host.html' });
    expect(errors).toContainEqual(`Lobby widget: no call button on ${host.origin}: ${why}`);
    await expect(guest.page.getByTestId('lobby-launcher')).toHaveCount(0);
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the call page\u2019s new window is closed, then the website hears close', async ({}, testInfo) => {
  const host = await openSite();
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    await guest.page.goto(host.url);
    const [popup] = await Promise.all([guest.context.waitForEvent('page'), guest.page.getByTestId('lobby-launcher').click()]);
    await expect.poll(() => eventTypes(guest.page)).toEqual(['load', 'open', 'ready']);
    await popup.close();
    await expect.poll(() => eventTypes(guest.page)).toEqual(['load', 'open', 'ready', 'close']);
    expect(await guest.page.evaluate(() => (window as unknown as { Lobby: { isOpen: boolean } }).Lobby.isOpen)).toBe(false);
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when a phone\u2019s visitor closes the call page\u2019s window during a call, then the website hears callEnded and close', async ({}, testInfo) => {
  test.slow(); // a call answered in the window
  const host = await openSite();
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: PHONE });
  try {
    await agentSignsIn(agent.page);
    await guest.page.goto(host.url);
    // a phone's screen: the button opens the call page in a window of its own, not the panel
    const [popup] = await Promise.all([guest.context.waitForEvent('page'), guest.page.getByTestId('lobby-launcher').click()]);
    await expect(guest.page.getByTestId('lobby-panel')).toBeHidden();
    await popup.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await popup.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
    await expect(popup.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(popup, 'guest in the window');
    await expect(guest.page.getByTestId('lobby-launcher')).toHaveText('Back to the call');
    await popup.close();
    await expect.poll(() => eventTypes(guest.page)).toEqual(['load', 'open', 'ready', 'callStarted', 'callAnswered', 'callEnded', 'close']);
    expect((await events(guest.page)).find((e) => e.type === 'callEnded')?.detail).toEqual({ reason: 'windowClosed', answered: true });
    // the call page's window took the call with it: the agent's call ends too
    await expect(agent.page.getByTestId('call-idle')).toBeVisible({ timeout: 60_000 });
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** The guest calls through the panel; answers the call id the agent's queue lists. */
async function callThroughPanel(guest: Page, agent: Page): Promise<string> {
  await guest.getByTestId('lobby-launcher').click();
  const frame = await widgetFrame(guest);
  await frame.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await frame.locator('[data-testid="call-button"][data-call-kind="video"]').click();
  await expect(frame.locator('[data-screen="waiting"]')).toBeVisible();
  const item = agent.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  return (await item.getAttribute('data-call-id')) ?? '';
}

/** The agent online, and the guest on the website's first page with a call waiting in the panel. */
async function waitingOnSite(guest: Page, agent: Page): Promise<string> {
  const host = await openSite();
  await agentSignsIn(agent);
  await guest.goto(host.url);
  return callThroughPanel(guest, agent);
}

/** A waiting clock's m:ss (or h:mm:ss) in seconds. */
function seconds(text: string | null): number {
  return (text ?? '').trim().split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

test('when the visitor closes the panel with a call waiting, then the call ends at once for the agent and the website hears callEnded', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await waitingOnSite(guest.page, agent.page);
    await guest.page.getByTestId('lobby-close').click();
    await expect(guest.page.getByTestId('lobby-panel')).toBeHidden();
    // the call page hung up before it went: the agent's queue is empty now, not after the 20 s a
    // vanished guest is given
    await expect(agent.page.getByTestId('queue-item')).toHaveCount(0, { timeout: 10_000 });
    await expect.poll(async () => (await events(guest.page)).filter((e) => e.type === 'callEnded')).toEqual([
      { type: 'callEnded', detail: { reason: 'cancelled', answered: false }, page: '/host.html' },
    ]);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the visitor follows a link of the website while waiting, then the next page takes the call back in its place and the agent answers it there', async ({}, testInfo) => {
  test.slow(); // two pages of the website, each loading the call page and opening its media
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    const callId = await waitingOnSite(guest.page, agent.page);
    // the guest has waited a while on the first page: its waiting clock goes on from there on the next
    const timer = (frame: Frame) => frame.locator('[data-screen="waiting"]').getByRole('timer');
    const firstTimer = timer(await widgetFrame(guest.page));
    await expect.poll(async () => seconds(await firstTimer.textContent())).toBeGreaterThanOrEqual(6);
    const waited = seconds(await firstTimer.textContent());
    const readAt = Date.now();
    // the next page's widget opens its panel by itself, and the call page is waiting again, for the same call
    await guest.page.getByRole('link', { name: 'Our offers' }).click();
    // meanwhile the agent sees the guest changing page, still in the queue, not gone
    await expect(agent.page.getByTestId('queue-item').getByTestId('queue-navigating')).toBeVisible();
    await expect(agent.page.getByTestId('queue-item')).toHaveAttribute('data-call-id', callId);
    await screenshot(agent.page, testInfo, 'console-queue-guest-changing-page');
    await expect(guest.page).toHaveURL(/\/other\.html$/);
    const frame = await widgetFrame(guest.page);
    await expect(guest.page.getByTestId('lobby-panel')).toBeVisible();
    await expect(frame.locator('[data-screen="waiting"]')).toBeVisible({ timeout: 30_000 });
    const shown = seconds(await timer(frame).textContent());
    // a clock started afresh on this page would show less than what was waited plus the page change
    expect(shown).toBeGreaterThanOrEqual(waited + Math.floor((Date.now() - readAt) / 1000) - 2);
    await expect(agent.page.getByTestId('queue-navigating')).toHaveCount(0);
    // the waiting screen fits the 400×640 panel: Cancel is on screen without scrolling
    await expect(frame.getByTestId('cancel-button')).toBeInViewport({ ratio: 1 });
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-call-id', callId);
    await expect.poll(async () => (await events(guest.page)).filter((e) => e.page === '/other.html' && e.type === 'callStarted')).toEqual([
      { type: 'callStarted', detail: { callType: 'video', resumed: true }, page: '/other.html' },
    ]);
    expect(await eventTypes(guest.page)).not.toContain('callEnded');
    await screenshot(guest.page, testInfo, 'widget-next-page-waiting');

    await item.getByTestId('answer-button').click();
    await expect(frame.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(frame, 'guest on the next page');
    await expectMediaFlowing(agent.page, 'agent');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect.poll(async () => (await events(guest.page)).filter((e) => e.type === 'callEnded')).toEqual([
      { type: 'callEnded', detail: expect.objectContaining({ answered: true }) as unknown as Record<string, unknown>, page: '/other.html' },
    ]);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the visitor follows a link of the website during a call, then the call comes back on the next page and media flows again both ways', async ({}, testInfo) => {
  test.slow(); // two pages of the website, each loading the call page and opening its media
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await waitingOnSite(guest.page, agent.page);
    await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
    const first = await widgetFrame(guest.page);
    await expect(first.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(first, 'guest before the link');

    const agentNotice = agent.page.getByTestId('agent-media-notice');
    await expect(agentNotice).toHaveCount(0);
    const left = Date.now();
    await guest.page.getByRole('link', { name: 'Our offers' }).click();
    // the agent is told while the guest's page goes and its next page takes the call back (a polite live
    // notice over the call), from the page going until the next page's camera reaches the console
    await expect(agentNotice).toHaveAttribute('data-notice', 'guestChangingPage');
    await expect(agentNotice).toHaveText('The guest is changing page on the website. The call comes back in a moment…');
    await expect(agentNotice).toHaveRole('status');
    await screenshot(agent.page, testInfo, 'console-guest-changing-page');
    await expect(guest.page).toHaveURL(/\/other\.html$/);
    const frame = await widgetFrame(guest.page);
    // the next page says it takes the call back until the call is back; that can be quick, so either the
    // notice is seen or the call is back already — and once it is back, no notice is left
    const takingBack = frame.locator('[data-testid="media-notice"][data-notice="takingCallBack"]');
    const ongoing = frame.locator('[data-screen="ongoing"]');
    await expect(takingBack.or(ongoing).first()).toBeVisible({ timeout: 30_000 });
    // read at once: the notice may go between a check of it and a second read (the call came back)
    const seenNotice = await takingBack.allTextContents();
    if (seenNotice.length > 0) {
      testInfo.annotations.push({ type: 'guest notice', description: 'Reconnecting your call… seen on the next page' });
      expect(seenNotice).toEqual(['Reconnecting your call…']);
    }
    await expect(ongoing).toBeVisible({ timeout: 30_000 });
    testInfo.annotations.push({ type: 'call back on the next page', description: `${Date.now() - left} ms` });
    // the agent never left the call: its hang-up button stayed, and the guest's media is back
    await expect(agent.page.getByTestId('agent-hangup-button')).toBeVisible();
    await expectFrameMediaFlowing(frame, 'guest on the next page');
    await expectMediaFlowing(agent.page, 'agent after the guest changed page');
    // the media is back both ways: neither side is told anything any more
    await expect(agentNotice).toHaveCount(0);
    await expect(frame.getByTestId('media-notice')).toHaveCount(0);
    testInfo.annotations.push({ type: 'agent notice gone', description: `${Date.now() - left} ms after the link` });
    await screenshot(guest.page, testInfo, 'widget-next-page-ongoing');
    const seen = await events(guest.page);
    expect(seen.filter((e) => e.type === 'callEnded')).toEqual([]);
    expect(seen.filter((e) => e.page === '/other.html' && e.type.startsWith('call'))).toEqual([
      { type: 'callStarted', detail: { callType: 'video', resumed: true }, page: '/other.html' },
      { type: 'callAnswered', detail: { resumed: true }, page: '/other.html' },
    ]);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** The visitor presses ↗ in the panel's bar; answers the new window, with its call page loaded. */
async function moveIntoWindow(guest: Page): Promise<Page> {
  const [popup] = await Promise.all([
    guest.context().waitForEvent('page'),
    guest.getByTestId('lobby-panel').getByRole('button', { name: 'Open in a new window' }).click(),
  ]);
  await expect(popup).toHaveURL(/[?&]resume=1/, { timeout: 15_000 });
  return popup;
}

test('when the visitor moves an answered call into a new window (↗), then the same call goes on there with media both ways and the website hears no callEnded until the window closes', async ({}, testInfo) => {
  test.slow(); // the call page loads and opens its media twice: in the panel, then in the window
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    const callId = await waitingOnSite(guest.page, agent.page);
    await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
    const first = await widgetFrame(guest.page);
    await expect(first.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(first, 'guest in the panel');

    const popup = await moveIntoWindow(guest.page);
    await expect(guest.page.getByTestId('lobby-panel')).toBeHidden();
    await expect(popup.locator('[data-screen="ongoing"]')).toBeVisible({ timeout: 30_000 });
    // the agent never left the call: its hang-up button stayed, and the guest's media is back, from the window
    await expect(agent.page.getByTestId('agent-hangup-button')).toBeVisible();
    await expectFrameMediaFlowing(popup, 'guest in the new window');
    await expectMediaFlowing(agent.page, 'agent after the call moved');
    await screenshot(popup, testInfo, 'widget-moved-window-ongoing');
    // the same call: the window's call page took it back, it did not call again
    expect(await popup.evaluate(() => sessionStorage.getItem('lobby.widget.carriedCall'))).toBeNull();
    const seen = await events(guest.page);
    expect(seen.filter((e) => e.type === 'callEnded')).toEqual([]);
    expect(seen.filter((e) => e.type === 'open').map((e) => e.detail)).toEqual([{ mode: 'frame' }, { mode: 'window' }]);
    expect(seen.filter((e) => e.type.startsWith('call')).slice(-2)).toEqual([
      { type: 'callStarted', detail: { callType: 'video', resumed: true }, page: '/host.html' },
      { type: 'callAnswered', detail: { resumed: true }, page: '/host.html' },
    ]);
    expect(callId).not.toBe('');

    // the visitor closes the window: the call ends, and the website hears callEnded and close
    await popup.close();
    await expect.poll(async () => (await events(guest.page)).slice(-2)).toEqual([
      { type: 'callEnded', detail: { reason: 'windowClosed', answered: true }, page: '/host.html' },
      { type: 'close', detail: {}, page: '/host.html' },
    ]);
    await expect(agent.page.getByTestId('call-idle')).toBeVisible({ timeout: 60_000 });
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the visitor moves a waiting call into a new window (↗), then it keeps its place in the queue and the agent answers it there', async ({}, testInfo) => {
  test.slow(); // the call page loads twice: in the panel, then in the window
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    const callId = await waitingOnSite(guest.page, agent.page);
    const popup = await moveIntoWindow(guest.page);
    await expect(popup.locator('[data-screen="waiting"]')).toBeVisible({ timeout: 30_000 });
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-call-id', callId);
    expect((await events(guest.page)).filter((e) => e.type === 'callEnded')).toEqual([]);
    await item.getByTestId('answer-button').click();
    await expect(popup.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(popup, 'guest in the new window');
    await expectMediaFlowing(agent.page, 'agent');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect.poll(async () => (await events(guest.page)).filter((e) => e.type === 'callEnded')).toEqual([
      { type: 'callEnded', detail: expect.objectContaining({ answered: true }) as unknown as Record<string, unknown>, page: '/host.html' },
    ]);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the website leaves its pages with the snippet after Lobby.keepCallOpen(), then the waiting call goes on in its own window and the agent answers it there', async ({}, testInfo) => {
  test.slow(); // the call page loads twice: in the panel, then in the window
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    const callId = await waitingOnSite(guest.page, agent.page);
    const [popup] = await Promise.all([guest.context.waitForEvent('page'), guest.page.getByRole('link', { name: 'Pay at our bank' }).click()]);
    await expect(guest.page).toHaveURL(/\/pay\.html$/);
    await expect(popup).toHaveURL(/[?&]resume=1/, { timeout: 15_000 });
    await expect(popup.locator('[data-screen="waiting"]')).toBeVisible({ timeout: 30_000 });
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-call-id', callId);
    await item.getByTestId('answer-button').click();
    await expect(popup.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectFrameMediaFlowing(popup, 'guest in its window');
    await expectMediaFlowing(agent.page, 'agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
