/**
 * Widget behaviours (docs/widget.md) beyond the call itself: the website's own title says the
 * call was answered while its tab was hidden; a website that refuses to frame the call page gets the
 * "Open in a new window" button and the window still talks to it; the website's pre-fill of name and
 * email reaches the welcome form, and the form's answers are recorded as the widget service.
 */
import { expect, test, type Frame, type Page } from '@playwright/test';
import { BASE_URL, DEMO_ADMIN, consoleLogin } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { HIDDEN_PAGE_INIT_SCRIPT } from '../support/widget/hiddenPage.ts';
import { startHostSite, type HostSite, type HostSiteOptions, type RecordedEvent } from '../support/widget/hostPage.ts';

let site: HostSite | null = null;
const cleanups: Array<() => Promise<unknown>> = [];

async function openSite(options: HostSiteOptions = {}): Promise<HostSite> {
  site = await startHostSite('127.0.0.1', options);
  await arrangeCompanySettings({ widgetOrigins: [site.origin] });
  return site;
}

test.afterEach(async () => {
  await site?.close();
  site = null;
  while (cleanups.length) await cleanups.pop()?.();
  await restoreAll();
});

const events = (page: Page) => page.evaluate(() => (window as unknown as { __lobbyEvents: RecordedEvent[] }).__lobbyEvents.map((e) => e));
const eventTypes = async (page: Page) => (await events(page)).map((e) => e.type);
const setHidden = (target: Page | Frame, hidden: boolean) =>
  target.evaluate((h) => (window as unknown as { __lobbySetHidden(hidden: boolean): void }).__lobbySetHidden(h), hidden);

async function widgetFrame(page: Page): Promise<Frame> {
  await expect.poll(() => eventTypes(page)).toContain('ready');
  const handle = await page.locator('iframe[data-testid="lobby-frame"]').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the widget iframe has no frame');
  return frame;
}

/** The company's welcome form with a name and an email field, switched on; removed after the test. */
async function arrangeWelcomeForm(): Promise<number> {
  const cookie = await consoleLogin(DEMO_ADMIN);
  const admin = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${BASE_URL}/api${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  const form = await admin<{ id: number }>('POST', '/admin/forms', {
    kind: 'welcome',
    title: 'Before we call',
    fields: [
      { key: 'name', type: 'text', label: 'Your name', required: true, order: 0 },
      { key: 'email', type: 'email', label: 'Your email', required: true, order: 1 },
      { key: 'topic', type: 'text', label: 'Topic', required: false, order: 2 },
    ],
  });
  await arrangeCompanySettings({ welcomeForm: true });
  cleanups.push(() => admin('DELETE', `/admin/forms/${form.id}`));
  return form.id;
}

test('when an agent answers while the website\u2019s tab is hidden, then the website\u2019s own title says so until the tab is seen again', async ({}, testInfo) => {
  const host = await openSite();
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest');
  try {
    await guest.context.addInitScript(HIDDEN_PAGE_INIT_SCRIPT); // in every frame: the website and the call page
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-empty')).toBeVisible();

    await guest.page.goto(host.url);
    await guest.page.getByTestId('lobby-launcher').click();
    const frame = await widgetFrame(guest.page);
    await frame.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await frame.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(frame.locator('[data-screen="waiting"]')).toBeVisible();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await expect(guest.page).toHaveTitle('Acme Travel');

    // the visitor switches to another tab (both documents of the tab are hidden), then the agent answers
    await setHidden(guest.page, true);
    await setHidden(frame, true);
    await item.getByTestId('answer-button').click();
    await expect.poll(() => eventTypes(guest.page)).toContain('callAnswered');
    await expect(guest.page).toHaveTitle('Your call was answered — Acme Travel');

    // back to the tab: the website's title is its own again
    await setHidden(frame, false);
    await setHidden(guest.page, false);
    await expect(guest.page).toHaveTitle('Acme Travel');
    await screenshot(guest.page, testInfo, 'widget-answered-host-title');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the website refuses to frame the call page, then the panel offers a new window, which opens the call page and talks to the website', async ({}, testInfo) => {
  // the company lists the website, but the website's own policy forbids frames (frame-src 'none')
  const host = await openSite({ csp: "frame-src 'none'" });
  const guest = await launchParticipant('guest');
  try {
    await guest.page.goto(host.url);
    await guest.page.getByTestId('lobby-launcher').click();
    await expect.poll(() => eventTypes(guest.page)).toContain('open');
    const openWindow = guest.page.getByTestId('lobby-open-window');
    await expect(openWindow).toBeVisible({ timeout: 30_000 });
    await expect(openWindow).toHaveText('Open in a new window');
    await expect(guest.page.getByTestId('lobby-panel')).toContainText('The call page cannot open inside this website.');
    expect(await eventTypes(guest.page)).not.toContain('ready');
    await screenshot(guest.page, testInfo, 'widget-refused-offers-window');

    // by keyboard: the button takes the focus and Enter opens the window
    await openWindow.focus();
    const [popup] = await Promise.all([guest.context.waitForEvent('page'), guest.page.keyboard.press('Enter')]);
    await popup.waitForLoadState('domcontentloaded');
    expect(new URL(popup.url()).origin).toBe(new URL(BASE_URL).origin);
    expect(new URL(popup.url()).searchParams.get('origin')).toBe(host.origin);
    await expect(popup.getByTestId('assignment-option').first()).toBeVisible();
    await expect.poll(() => events(guest.page)).toContainEqual({ type: 'open', detail: { mode: 'window' }, page: '/host.html' });
    await expect.poll(() => eventTypes(guest.page)).toContain('ready');
    await expect(guest.page.getByTestId('lobby-panel')).toBeHidden();
    await screenshot(popup, testInfo, 'widget-refused-window');
  } finally {
    await closeAll(testInfo, guest);
  }
});

test('when the website pre-fills name and email, then the welcome form shows them and its answers are recorded for the widget service', async ({}, testInfo) => {
  await arrangeWelcomeForm();
  // one pre-fill on the script tag; the website changes it with Lobby.prefill once the form is on screen
  const host = await openSite({ scriptAttributes: 'data-name="Dana Haddad" data-email="dana@example.org"' });
  const guest = await launchParticipant('guest');
  try {
    await guest.page.goto(host.url);
    await guest.page.getByTestId('lobby-launcher').click();
    const frame = await widgetFrame(guest.page);
    const form = frame.getByTestId('welcome-form');
    await expect(form).toBeVisible();
    await expect(form.locator('[data-field="name"]')).toHaveValue('Dana Haddad');
    await expect(form.locator('[data-field="email"]')).toHaveValue('dana@example.org');
    await expect(form.locator('[data-field="topic"]')).toHaveValue('');

    // the guest corrects the name; a later pre-fill fills only what is still empty
    await form.locator('[data-field="name"]').fill('Dana H.');
    await form.locator('[data-field="email"]').fill('');
    await guest.page.evaluate(() =>
      (window as unknown as { Lobby: { prefill(g: { name?: string; email?: string }): void } }).Lobby.prefill({ name: 'Someone Else', email: 'dana.haddad@example.org' }),
    );
    await expect(form.locator('[data-field="email"]')).toHaveValue('dana.haddad@example.org');
    await expect(form.locator('[data-field="name"]')).toHaveValue('Dana H.');
    await screenshot(guest.page, testInfo, 'widget-prefilled-welcome-form');

    await form.locator('[data-field="topic"]').fill('A loan');
    await form.getByTestId('welcome-form-submit').click();
    await expect(form).toHaveCount(0);
    await expect(frame.getByTestId('assignment-option').first()).toBeVisible();

    const rows = await queryRows<{ service_type: string; answers: string }>(
      "select service_type, answers from form_submissions where answers like '%dana.haddad@example.org%'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.service_type).toBe('widget');
    expect(JSON.parse(rows[0]?.answers ?? '{}')).toEqual({ name: 'Dana H.', email: 'dana.haddad@example.org', topic: 'A loan' });
  } finally {
    await closeAll(testInfo, guest);
  }
});
