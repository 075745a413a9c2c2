/**
 * The console filters its reports by the service labels (docs/guest-journey.md): a call made through the
 * website widget counts under "Website widget", one made on the full call page under "Call page", and
 * both under "All services". The switch works by keyboard, in English and Arabic, and is axe-clean.
 */
import { expect, test, type Frame, type Page } from '@playwright/test';
import { DEMO_ADMIN } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { expectAccessible } from '../support/guest/screens.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { startHostSite, type HostSite, type RecordedEvent } from '../support/widget/hostPage.ts';

type Service = 'all' | 'talk' | 'widget';
let site: HostSite;

test.beforeEach(async () => {
  site = await startHostSite();
  await arrangeCompanySettings({ widgetOrigins: [site.origin] });
});

test.afterEach(async () => {
  await site.close();
  await restoreAll();
});

/** Picks a service on the reports page and reads the calls of the period once the report of it is shown. */
async function callsOf(page: Page, service: Service): Promise<number> {
  await page.getByTestId(`service-${service}`).check();
  const totals = page.getByTestId('reports-totals');
  await expect(totals).toHaveAttribute('data-service', service);
  const text = (await page.getByTestId('total-calls-value').textContent()) ?? '';
  // Arabic pages may write Arabic-Indic digits
  return Number(text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[^\d]/g, ''));
}

async function countsByService(page: Page): Promise<Record<Service, number>> {
  return { widget: await callsOf(page, 'widget'), talk: await callsOf(page, 'talk'), all: await callsOf(page, 'all') };
}

/** The guest presses Call (voice), waits for an agent, and gives up. */
async function callAndCancel(target: Page | Frame): Promise<void> {
  await target.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await target.locator('[data-testid="call-button"][data-call-kind="voice"]').click();
  await expect(target.locator('[data-screen="waiting"]')).toBeVisible();
  await target.getByTestId('cancel-button').click();
  await expect(target.locator('[data-screen="waiting"]')).toHaveCount(0);
}

test('when one call comes through the widget and one through the call page, then the reports count each under its own service and both under all services', async ({}, testInfo) => {
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  const guest = await launchParticipant('guest');
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.goto('/console/reports');
    const before = await countsByService(admin.page);
    const since = Date.now();

    // a visitor calls through the widget on the company's website…
    await guest.page.goto(site.url);
    await guest.page.getByTestId('lobby-launcher').click();
    await expect
      .poll(() => guest.page.evaluate(() => (window as unknown as { __lobbyEvents: RecordedEvent[] }).__lobbyEvents.map((e) => e.type)))
      .toContain('ready');
    const frame = await (await guest.page.locator('iframe[data-testid="lobby-frame"]').elementHandle())?.contentFrame();
    if (!frame) throw new Error('the widget iframe has no frame');
    await callAndCancel(frame);
    // …and another on the full call page
    await guest.page.goto('/');
    await callAndCancel(guest.page);

    const made = await queryRows<{ service_type: string }>(
      'select service_type from call_reports where company_id = 18 and created_at >= ? order by created_at',
      [since],
    );
    expect(made.map((r) => r.service_type)).toEqual(['widget', 'talk']);

    // the console's filter: each under its own label, both under all (the switch by keyboard)
    await admin.page.getByTestId('reports-refresh').click();
    expect(await callsOf(admin.page, 'widget')).toBe(before.widget + 1);
    expect(await callsOf(admin.page, 'talk')).toBe(before.talk + 1);
    expect(await callsOf(admin.page, 'all')).toBe(before.all + 2);
    await admin.page.getByTestId('service-all').focus();
    await admin.page.keyboard.press('ArrowRight');
    await expect(admin.page.getByTestId('service-talk')).toBeChecked();
    await expect(admin.page.getByTestId('reports-totals')).toHaveAttribute('data-service', 'talk');
    await expect(admin.page.getByTestId('reports-csv')).toHaveAttribute('href', /service=talk/);
    await screenshot(admin.page, testInfo, 'reports-service-talk');
    await expectAccessible(admin.page, testInfo, 'reports-service-en');

    // in Arabic, right to left, with the same counts
    await admin.page.locator('[data-language="ar"]').click();
    await expect(admin.page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(admin.page.getByTestId('service-switch')).toContainText('أداة الموقع');
    expect(await callsOf(admin.page, 'widget')).toBe(before.widget + 1);
    await screenshot(admin.page, testInfo, 'reports-service-widget-ar');
    await expectAccessible(admin.page, testInfo, 'reports-service-ar');
    await admin.page.locator('[data-language="en"]').click();
  } finally {
    await closeAll(testInfo, admin, guest);
  }
});
