/**
 * Console and company administration, end to end on the real stack: signing in and out,
 * company settings reaching the guest page, and reports counting a call made just before.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL, DEMO_ADMIN, DEMO_AGENT, consoleLogin } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';

type Settings = Record<string, unknown>;

async function adminApi<T>(cookie: string, method: 'GET' | 'PUT', body?: Settings): Promise<T> {
  const response = await fetch(`${BASE_URL}/api/admin/company`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin/company ${method}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** Puts the demo company's settings back the way they were (other journeys rely on them). */
async function restoreSettings(original: Settings, keys: string[]): Promise<void> {
  const cookie = await consoleLogin(DEMO_ADMIN);
  await adminApi(cookie, 'PUT', Object.fromEntries(keys.map((k) => [k, original[k]])));
}

async function reportTotal(page: Page, key: 'calls' | 'answered' | 'abandoned'): Promise<number> {
  const text = (await page.getByTestId(`total-${key}-value`).textContent()) ?? '';
  return Number(text.replace(/[^\d]/g, ''));
}

test('when an agent signs in and then signs out, then the workspace opens and afterwards the session is gone', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  try {
    await agentSignsIn(agent.page, DEMO_AGENT);
    await expect(agent.page.getByTestId('agent-name')).toHaveText('Demo Agent');
    // An agent has no administration or reports in its navigation, and the pages send it back.
    await expect(agent.page.getByTestId('nav-admin')).toHaveCount(0);
    await expect(agent.page.getByTestId('nav-reports')).toHaveCount(0);
    await agent.page.goto('/console/admin/settings');
    await expect(agent.page.locator('[data-screen="workspace"]')).toBeVisible();
    expect(new URL(agent.page.url()).pathname).toMatch(/^\/console\/?$/);

    await agent.page.getByTestId('logout-button').click();
    await expect(agent.page.locator('[data-screen="login"]')).toBeVisible();
    const me = await agent.page.evaluate(async () => (await fetch('/api/console/me')).status);
    expect(me).toBe(401);
    await agent.page.goto('/console/');
    await expect(agent.page.locator('[data-screen="login"]')).toBeVisible();

    // A wrong password is refused with a message.
    await agent.page.getByTestId('login-email').fill(DEMO_AGENT.email);
    await agent.page.getByTestId('login-password').fill('not-the-password');
    await agent.page.getByTestId('login-submit').click();
    await expect(agent.page.getByTestId('login-error')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent);
  }
});

test('when a person opens the console without a session, or with an expired one, then the sign-in page shows and nothing fails in the browser', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  // the console's check on load (GET /api/console/session, docs/api.md) answers 200 signed out: no failed
  // request or error line in the browser's console, where a 401 from /api/console/me used to be
  const failures: string[] = [];
  agent.page.on('console', (line) => {
    if (line.type() === 'error') failures.push(`console: ${line.text()}`);
  });
  agent.page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  try {
    await agent.page.goto('/console/');
    await expect(agent.page.locator('[data-screen="login"]')).toBeVisible();
    expect(failures, 'a fresh load').toEqual([]);
    await screenshot(agent.page, testInfo, 'console-fresh-load');

    // a session cookie the server no longer knows (expired, or from before a reset) is detected as signed out
    await agent.context.addCookies([{ name: 'lobby_session', value: 'expired-session-id', url: BASE_URL }]);
    await agent.page.reload();
    await expect(agent.page.locator('[data-screen="login"]')).toBeVisible();
    expect((await agent.context.cookies(BASE_URL)).map((c) => c.name)).not.toContain('lobby_session');

    // and signing in still works from there
    await agentSignsIn(agent.page, DEMO_AGENT);
    await expect(agent.page.getByTestId('agent-name')).toHaveText('Demo Agent');
    expect(failures).toEqual([]);
  } finally {
    await closeAll(testInfo, agent);
  }
});

test('when an admin changes the company settings, then the guest page shows them', async ({}, testInfo) => {
  const cookie = await consoleLogin(DEMO_ADMIN);
  const original = await adminApi<Settings>(cookie, 'GET');
  const changed = ['welcomeMsg', 'welcomeMsg_ar', 'backgroundColor', 'websiteUrl', 'websiteTitle', 'language', 'name'];
  const admin = await launchParticipant('admin');
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-admin').click();
    await expect(admin.page.locator('[data-screen="admin-settings"]')).toBeVisible();

    // General: the company's name.
    await admin.page.getByTestId('setting-name').fill('Lobby Demo Bank');
    // Messages, with the Arabic variant.
    await admin.page.getByTestId('settings-tab-messages').click();
    await admin.page.getByTestId('setting-welcomeMsg').fill('Welcome to the e2e bank, talk to us.');
    await admin.page.getByTestId('setting-welcomeMsg_ar').fill('أهلًا بك في بنك الاختبار');
    // The sketch follows as the admin types.
    await expect(admin.page.getByTestId('preview-welcome')).toHaveText('Welcome to the e2e bank, talk to us.');
    // Look.
    await admin.page.getByTestId('settings-tab-look').click();
    await admin.page.getByTestId('setting-backgroundColor').fill('#123456');
    await admin.page.getByTestId('setting-websiteUrl').fill('https://bank.example/');
    await admin.page.getByTestId('setting-websiteTitle').fill('bank.example');
    await expect(admin.page.getByTestId('preview-sketch')).toHaveCSS('background-color', 'rgb(18, 52, 86)');
    await screenshot(admin.page, testInfo, 'console-admin-settings-look');
    await admin.page.getByTestId('settings-save').click();
    await expect(admin.page.getByTestId('settings-message')).toBeVisible();
    await expect(admin.page.getByTestId('company-name')).toHaveText('Lobby Demo Bank');

    // The guest page shows every change.
    await guest.page.goto('/');
    const selection = guest.page.locator('[data-screen="selection"]');
    await expect(selection).toBeVisible();
    await expect(selection.getByText('Welcome to the e2e bank, talk to us.')).toBeVisible();
    await expect(selection.getByRole('heading', { name: 'Lobby Demo Bank' })).toBeVisible();
    await expect(guest.page.getByTestId('website-link')).toHaveAttribute('href', 'https://bank.example/');
    await expect(guest.page.getByTestId('website-link')).toContainText('bank.example');
    const bg = await guest.page.evaluate(() => document.documentElement.style.getPropertyValue('--lobby-bg'));
    expect(bg).toBe('#123456');
    await screenshot(guest.page, testInfo, 'console-admin-guest-after-settings');

    // Behaviour through the General tab: the company speaks Arabic → the guest page is rtl with the Arabic welcome.
    await admin.page.getByTestId('settings-tab-general').click();
    await admin.page.getByTestId('setting-language').selectOption('arabic');
    await admin.page.getByTestId('settings-save').click();
    await expect(admin.page.getByTestId('settings-message')).toBeVisible();
    await guest.page.reload();
    await expect(guest.page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(guest.page.locator('[data-screen="selection"]').getByText('أهلًا بك في بنك الاختبار')).toBeVisible();
    await screenshot(guest.page, testInfo, 'console-admin-guest-arabic');

    // The real guest page in the preview frame.
    await admin.page.getByTestId('preview-live').click();
    await expect(admin.page.frameLocator('[data-testid="preview-frame"]').locator('[data-screen="selection"]')).toBeVisible();
    await screenshot(admin.page, testInfo, 'console-admin-settings-live-preview');
  } finally {
    await restoreSettings(original, changed);
    await closeAll(testInfo, admin, guest);
  }
});

test('when a call was just made and answered, then the reports count it and the CSV has it', async ({}, testInfo) => {
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-reports').click();
    await expect(admin.page.locator('[data-screen="reports"]')).toBeVisible();
    await expect(admin.page.getByTestId('total-calls-value')).toBeVisible();
    const before = { calls: await reportTotal(admin.page, 'calls'), answered: await reportTotal(admin.page, 'answered') };

    // A guest calls, the agent answers, then hangs up.
    await agentSignsIn(agent.page, DEMO_AGENT);
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await agent.page.waitForTimeout(1500);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();

    // The reports count it.
    await expect
      .poll(async () => {
        await admin.page.getByTestId('reports-refresh').click();
        await admin.page.waitForTimeout(300);
        return { calls: await reportTotal(admin.page, 'calls'), answered: await reportTotal(admin.page, 'answered') };
      })
      .toEqual({ calls: before.calls + 1, answered: before.answered + 1 });
    await screenshot(admin.page, testInfo, 'console-reports');

    // The CSV download has today's row with the same count.
    const today = new Date().toISOString().slice(0, 10);
    const [download] = await Promise.all([admin.page.waitForEvent('download'), admin.page.getByTestId('reports-csv').click()]);
    const csv = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(csv.map((c: Buffer) => c)).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('day,calls,answered,abandoned,booked,avg_wait_seconds,avg_talk_seconds,ratings,avg_rating');
    const row = lines.find((l) => l.startsWith(`${today},`))?.split(',');
    expect(Number(row?.[1])).toBeGreaterThanOrEqual(1);
    expect(lines.find((l) => l.startsWith('total,'))?.split(',')[1]).toBe(String(before.calls + 1));
  } finally {
    await closeAll(testInfo, admin, agent, guest);
  }
});

async function api<T>(cookie: string, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

test('when an admin adds an agent, an assignment, opening hours and an appointment, then the new agent signs in and sees its appointment', async ({}, testInfo) => {
  const stamp = Date.now().toString(36);
  const newAgent = { name: `E2E Agent ${stamp}`, email: `e2e-${stamp}@demo.lobby`, password: `e2e-password-${stamp}` };
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  const agent = await launchParticipant('agent');
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);

    // Team: a new agent with a password set by the admin.
    await admin.page.goto('/console/admin/users');
    await admin.page.getByLabel('Name', { exact: true }).fill(newAgent.name);
    await admin.page.getByLabel('Email').fill(newAgent.email);
    await admin.page.getByLabel('Password', { exact: true }).fill(newAgent.password);
    await admin.page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(admin.page.locator(`[data-testid="user-row"][data-email="${newAgent.email}"]`)).toBeVisible();
    await screenshot(admin.page, testInfo, 'console-admin-team');

    // Assignments: a new queue served by the new agent.
    await admin.page.getByRole('link', { name: 'Assignments' }).click();
    await admin.page.getByTestId('new-assignment-name').fill(`E2E Desk ${stamp}`);
    await admin.page.getByTestId('add-assignment').click();
    const row = admin.page.getByTestId('assignment-row').filter({ has: admin.page.locator(`input[value="E2E Desk ${stamp}"]`) });
    await expect(row).toBeVisible();
    await row.getByLabel(newAgent.name).check();
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(admin.page.getByTestId('assignment-row').filter({ has: admin.page.locator(`input[value="E2E Desk ${stamp}"]`) }).getByLabel(newAgent.name)).toBeChecked();
    await screenshot(admin.page, testInfo, 'console-admin-assignments');

    // Opening hours: weekly hours and a closed day, saved (then put back to always open).
    await admin.page.getByRole('link', { name: 'Opening hours' }).click();
    await admin.page.getByTestId('schedule-always-open').uncheck();
    await admin.page.getByTestId('schedule-timezone').fill('Asia/Riyadh');
    await admin.page.getByLabel('Date').fill('2030-01-01');
    await admin.page.getByRole('button', { name: 'Add closed day' }).click();
    await admin.page.getByTestId('schedule-save').click();
    await expect(admin.page.getByTestId('schedule-message')).toHaveText('Saved.');
    await screenshot(admin.page, testInfo, 'console-admin-schedule');
    const cookie = await consoleLogin(DEMO_ADMIN);
    const saved = await api<{ schedule: { timezone: string; closedDays: string[]; weekly: unknown[] } | null }>(cookie, 'GET', '/admin/schedule');
    expect(saved.schedule).toMatchObject({ timezone: 'Asia/Riyadh', closedDays: ['2030-01-01'] });
    expect(saved.schedule?.weekly.length).toBe(5);
    await admin.page.getByTestId('schedule-always-open').check();
    await admin.page.getByTestId('schedule-save').click();
    await expect.poll(async () => (await api<{ schedule: unknown }>(cookie, 'GET', '/admin/schedule')).schedule).toBeNull();

    // Appointments: the new agent at a time; the link is /appointment/{reference}.
    await admin.page.getByRole('link', { name: 'Appointments' }).first().click();
    await admin.page.getByTestId('appointment-agent').selectOption({ label: newAgent.name });
    await admin.page.getByLabel('Note').fill('Mortgage review');
    await admin.page.getByTestId('appointment-create').click();
    await expect(admin.page.getByTestId('appointment-created')).toBeVisible();
    const link = (await admin.page.getByTestId('appointment-created').locator('a').textContent()) ?? '';
    expect(new URL(link).pathname).toMatch(/^\/appointment\/[a-z2-9]{12}$/);
    await screenshot(admin.page, testInfo, 'console-admin-appointments');

    // The new agent signs in with the password the admin set and sees only its appointment.
    await agentSignsIn(agent.page, { email: newAgent.email, password: newAgent.password });
    await agent.page.getByTestId('nav-appointments').click();
    const mine = agent.page.getByTestId('appointment-row');
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('Mortgage review');
    await expect(agent.page.getByTestId('appointment-agent')).toHaveCount(0);

    // The same pages in Arabic are right to left.
    await admin.page.getByRole('link', { name: 'Team' }).click();
    await admin.page.locator('[data-language="ar"]').click();
    await expect(admin.page.locator('html')).toHaveAttribute('dir', 'rtl');
    await screenshot(admin.page, testInfo, 'console-admin-team-ar');
    await admin.page.locator('[data-language="en"]').click();
  } finally {
    // Leave the demo company as it was for the other journeys.
    const cookie = await consoleLogin(DEMO_ADMIN);
    const { assignments } = await api<{ assignments: Array<{ id: number; name: string }> }>(cookie, 'GET', '/admin/assignments');
    for (const a of assignments.filter((x) => x.name.startsWith('E2E Desk'))) await api(cookie, 'DELETE', `/admin/assignments/${a.id}`);
    await api(cookie, 'PUT', '/admin/schedule', { schedule: null });
    await closeAll(testInfo, admin, agent);
  }
});

test('when an admin builds a welcome form, then the guest is asked exactly those fields before calling', async ({}, testInfo) => {
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.goto('/console/admin/forms');
    const editor = admin.page.getByTestId('form-editor-welcome');
    await editor.getByTestId('form-title').fill('Before we call');
    await editor.getByTestId('add-field').click();
    await editor.getByTestId('add-field').click();
    const [first, second] = [editor.getByTestId('form-field').nth(0), editor.getByTestId('form-field').nth(1)];
    await first.getByTestId('field-label').fill('Full name');
    await first.getByTestId('field-required').check();
    await second.getByTestId('field-label').fill('Topic');
    await second.getByTestId('field-type').selectOption('select');
    await second.getByTestId('field-options').fill('Loans | القروض\nCards | البطاقات');
    // Order: the topic first.
    await second.getByRole('button', { name: 'Move Topic up' }).click();
    await editor.getByTestId('form-in-use').check();
    await editor.getByTestId('form-save').click();
    await expect(editor.getByTestId('form-message')).toHaveText('Saved. The guest page uses it now.');
    await screenshot(admin.page, testInfo, 'console-admin-forms');

    await guest.page.goto('/');
    const form = guest.page.getByTestId('welcome-form');
    await expect(form).toBeVisible();
    // (The guest app titles the form with the company's welcomeFormTitle message, not the form's own title.)
    await expect(form.getByLabel('Full name')).toBeVisible();
    await expect(form.getByLabel('Topic')).toBeVisible();
    const labels = await form.locator('label').allTextContents();
    expect(labels.findIndex((l) => l.includes('Topic'))).toBeLessThan(labels.findIndex((l) => l.includes('Full name')));
    await screenshot(guest.page, testInfo, 'console-admin-guest-welcome-form');
  } finally {
    const cookie = await consoleLogin(DEMO_ADMIN);
    const { forms } = await api<{ forms: Array<{ id: number; kind: string }> }>(cookie, 'GET', '/admin/forms');
    for (const f of forms) await api(cookie, 'DELETE', `/admin/forms/${f.id}`);
    await api(cookie, 'PUT', '/admin/company', { welcomeForm: false });
    await closeAll(testInfo, admin, guest);
  }
});

test('when an admin works on a 1366×768 laptop, then the navigation keeps its labels and the Reports CSV download looks like a button', async ({}, testInfo) => {
  const admin = await launchParticipant('admin', { viewport: { width: 1366, height: 768 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    const nav = admin.page.getByRole('navigation', { name: 'Main' });
    // every link shows its label on screen, not only its icon (a visually hidden label is 1 px wide)
    for (const name of ['Queue', 'Appointments', 'Reports', 'Administration']) {
      const label = nav.getByRole('link', { name }).getByText(name, { exact: true });
      await expect(label).toBeInViewport();
      expect((await label.boundingBox())!.width, `the label ${name}`).toBeGreaterThan(30);
    }
    await screenshot(admin.page, testInfo, 'console-nav-1366');

    await nav.getByRole('link', { name: 'Reports' }).click();
    const csv = admin.page.getByTestId('reports-csv');
    await expect(csv).toBeVisible();
    const look = await csv.evaluate((a) => {
      const style = getComputedStyle(a);
      return { underline: style.textDecorationLine, border: style.borderTopStyle };
    });
    expect(look).toEqual({ underline: 'none', border: 'solid' });
    await screenshot(admin.page, testInfo, 'console-reports-1366');
  } finally {
    await closeAll(testInfo, admin);
  }
});
