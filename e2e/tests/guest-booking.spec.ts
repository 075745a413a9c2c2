/**
 * Booking a time instead of waiting (docs/guest-journey.md "Booking a time instead"), as the people do it:
 * - a closed company offers booking; the guest books a time, gets its link, a calendar file and the time;
 *   the booked agent sees it in the console's appointments; at the time the link reaches that agent;
 * - a guest whose estimated wait passes the company's threshold books instead and is reported as booked,
 *   not abandoned.
 * The schedule, the other agents' appointments and a day's history are arranged through the admin API
 * and the database; everything else is clicked and typed.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { arrangeLongWaitBooking } from '../support/guest/longWait.ts';
import { LAPTOP, PHONE, expectScreen, record } from '../support/guest/screens.ts';
import { DEMO_ADMIN } from '../support/api.ts';
import { adminApi, makeAgent } from './routing-support.ts';

test.use({ trace: 'off' });

let browsers: LaunchedBrowser[] = [];
const cancelAfter: number[] = [];
test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...browsers);
  browsers = [];
  for (const id of cancelAfter.splice(0)) await adminApi('DELETE', `/admin/appointments/${id}`).catch(() => undefined);
  await restoreAll();
});
async function launch(tag: string, viewport: { width: number; height: number }) {
  const launched = await launchParticipant(tag, { viewport });
  browsers.push(launched);
  return launched;
}
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The guest's steps on the booking view: the first free time, the call type, its name. */
async function bookFirstTime(page: Page, callType: 'Video call' | 'Voice call', name: string): Promise<string> {
  const time = page.getByRole('group', { name: 'Time' }).getByRole('radio').first();
  await time.check();
  const chosen = (await time.getAttribute('value')) ?? '';
  await page.getByRole('radio', { name: callType }).check();
  await page.getByLabel('Your name').fill(name);
  await page.getByTestId('booking-submit').click();
  return chosen;
}

test('when the company is closed, then the guest books a time, the agent sees it in the console, and at the time the link reaches that agent', async ({}, testInfo) => {
  test.setTimeout(420_000);
  // the company opens at the next minute at least two and a half minutes away, for half an hour (one slot)
  const opensAt = Math.ceil((Date.now() + 150_000) / 60_000) * 60_000;
  test.skip(new Date(opensAt + 30 * 60_000).getUTCDate() !== new Date(opensAt).getUTCDate(), 'the slot would cross midnight UTC');
  const booked = await makeAgent('Bookable', ['Sales']);
  // every other agent of the company already has an appointment then: the time can only go to this one
  const { users } = await adminApi<{ users: Array<{ id: number; role: string }> }>('GET', '/admin/users');
  for (const u of users.filter((x) => x.role === 'agent' && x.id !== booked.id)) {
    const made = await adminApi<{ id: number }>('POST', '/admin/appointments', { agentId: u.id, startsAt: new Date(opensAt).toISOString(), durationMinutes: 30 });
    cancelAfter.push(made.id);
  }
  await arrangeCompanySettings({
    language: 'english',
    appointmentBooking: true,
    schedule: { timezone: 'UTC', weekly: [{ day: new Date(opensAt).getUTCDay(), from: hhmm(opensAt), to: hhmm(opensAt + 30 * 60_000) }] },
  });

  const guest = await launch('booking-guest', LAPTOP);
  await guest.page.goto('/');
  await expectScreen(guest.page, 'schedule');
  // the keyboard reaches the offer
  const offer = guest.page.getByRole('button', { name: 'Book a time instead' });
  await offer.focus();
  await guest.page.keyboard.press('Enter');
  await expectScreen(guest.page, 'booking');
  await expect(guest.page.getByText(/Times are shown in your time zone/)).toBeVisible();
  await expect(guest.page.getByRole('group', { name: 'Time' })).toBeVisible();
  await record(guest.page, testInfo, 'booking-form-en');
  const chosen = await bookFirstTime(guest.page, 'Voice call', 'Sara Booker');
  expect(Date.parse(chosen)).toBe(opensAt);

  await expectScreen(guest.page, 'booked');
  await expect(guest.page.getByTestId('booked-time')).toHaveAttribute('data-starts-at', new Date(opensAt).toISOString());
  const link = guest.page.getByTestId('booked-link');
  await expect(link).toHaveText(/\/appointment\/[a-z0-9]{12}$/);
  const reference = ((await link.textContent()) ?? '').split('/').pop() ?? '';
  await record(guest.page, testInfo, 'booking-done-en');
  const download = guest.page.waitForEvent('download');
  await guest.page.getByTestId('booked-calendar').click();
  const ics = fs.readFileSync((await (await download).path()) ?? '', 'utf8');
  expect(ics).toContain(`DTSTART:${new Date(opensAt).toISOString().replace(/[-:]/g, '').replace('.000', '')}`);
  expect(ics).toContain(`/appointment/${reference}`);

  // the booked agent finds it among its appointments
  const agent = await launch('booked-agent', LAPTOP);
  await agentSignsIn(agent.page, booked);
  await agent.page.getByTestId('nav-appointments').click();
  const row = agent.page.locator(`[data-testid="appointment-row"][data-reference="${reference}"]`);
  await expect(row).toContainText('Sara Booker');
  await expect(row).toContainText('Booked by the visitor: voice call');
  await agent.page.getByRole('navigation').getByRole('link').first().click();

  // at the time: the company is open and the guest's link reaches that agent
  await guest.page.waitForTimeout(Math.max(0, opensAt - Date.now() + 1_000));
  await link.click();
  await guest.page.locator('[data-testid="call-button"][data-call-kind="voice"]').click();
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  await expect(item.getByTestId('appointment-badge')).toBeVisible();
  await item.getByTestId('answer-button').click();
  await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
});

test('when the estimated wait passes the company’s threshold, then the guest may book instead, and the call is reported as booked, not abandoned', async ({}, testInfo) => {
  test.setTimeout(300_000);
  // a long wait: a history of calls handled in about forty minutes, one in progress on the pool's only agent
  const name = await arrangeLongWaitBooking('arabic');
  const day = new Date().toISOString().slice(0, 10);
  type Totals = { calls: number; abandoned: number; booked: number };
  const totals = async () => (await adminApi<{ totals: Totals }>('GET', `/console/reports?from=${day}&to=${day}`)).totals;
  const before = await totals();

  const guest = await launch('long-wait-guest', PHONE);
  await guest.page.goto('/');
  await guest.page.getByTestId('assignment-option').filter({ hasText: name }).click();
  await guest.page.locator('[data-testid="call-button"][data-call-kind="voice"]').click();
  await expectScreen(guest.page, 'waiting', 'ar');
  // the estimate arrives with the poll and the history's cache; then the offer
  const offer = guest.page.getByRole('button', { name: 'احجز موعدًا بدلًا من ذلك' });
  await expect(offer).toBeVisible({ timeout: 60_000 });
  await record(guest.page, testInfo, 'booking-offer-waiting-ar');
  await offer.click();
  await expectScreen(guest.page, 'booking', 'ar');
  // the free times have arrived
  await expect(guest.page.getByRole('group', { name: 'الوقت' })).toBeVisible();
  await record(guest.page, testInfo, 'booking-form-ar');
  await guest.page.getByRole('group', { name: 'الوقت' }).getByRole('radio').first().check();
  await guest.page.getByRole('radio', { name: 'مكالمة فيديو' }).check();
  await guest.page.getByLabel('اسمك').fill('نور');
  await guest.page.getByTestId('booking-submit').click();
  await expectScreen(guest.page, 'booked', 'ar');
  await record(guest.page, testInfo, 'booking-done-ar');
  const reference = ((await guest.page.getByTestId('booked-link').textContent()) ?? '').split('/').pop() ?? '';
  const made = (await adminApi<{ appointments: Array<{ id: number; reference: string }> }>('GET', '/admin/appointments')).appointments.find((a) => a.reference === reference);
  expect(made).toBeDefined();
  if (made) cancelAfter.push(made.id);

  // the supervisor's reports: one more booked call, no more abandoned ones
  const admin = await launch('reports-admin', LAPTOP);
  await agentSignsIn(admin.page, DEMO_ADMIN);
  await admin.page.getByTestId('nav-reports').click();
  await expect(admin.page.getByTestId('total-booked-value')).toHaveText(String(before.booked + 1));
  await expect(admin.page.getByTestId('total-abandoned-value')).toHaveText(String(before.abandoned));
});
