/**
 * On the real stack: a guest whose browser dies while it waits (closed or crashed:
 * no pagehide beacon reaches the server) leaves its XMPP room at once; ejabberd tells the server
 * (mod_lobby_events), the server sees the room without it and closes the call, so Reports count it
 * abandoned within half a minute instead of "Waiting or open" for hours. And a guest who refuses its
 * camera never entered the queue: no report is made for it.
 */
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, consoleLogin } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { closeAll } from '../support/journey.ts';
import { guestExitAt, newestCall, totals } from '../support/reports.ts';

test('when a waiting guest\u2019s browser dies without a word, then within half a minute the call leaves "Waiting or open" for abandoned', async ({}, testInfo) => {
  const admin = await consoleLogin(DEMO_ADMIN);
  const guest = await launchParticipant('guest');
  let closed = false;
  try {
    const before = await totals(admin);
    const previous = (await newestCall(admin))?.callId;
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();
    await expect.poll(async () => (await newestCall(admin))?.callId).not.toBe(previous);
    const callId = (await newestCall(admin))?.callId ?? '';
    const waiting = await totals(admin);
    expect(waiting.calls - before.calls).toBe(1);
    // (the totals of other calls may move meanwhile: an earlier journey's guests are swept too)
    expect(await guestExitAt(callId)).toBeNull();

    // act: the browser dies; nothing it would say on the way out reaches the server (as in a crash)
    await guest.context.route('**/api/call-report/**', (route) => route.abort());
    await guest.context.close();
    closed = true;

    // assert: the call is counted abandoned within half a minute (ejabberd posts the guest's leaving within
    // half a second; the server asks about that room every 3 s and takes the guest for gone after 20 s
    // missing from it: an XMPP drop is not leaving)
    await expect.poll(() => guestExitAt(callId), { message: 'the call is stamped as left by its guest', timeout: 40_000, intervals: [1000] }).not.toBeNull();
    const [row] = await queryRows<{ call_answered_at: number | null }>('select call_answered_at from call_reports where call_id = ?', [callId]);
    expect(row?.call_answered_at).toBeNull();
    // not answered and left by its guest: Reports count it abandoned (the rule: apps/server/test/routes/api/console/reports.test.ts)
    expect((await totals(admin)).abandoned - before.abandoned).toBeGreaterThanOrEqual(1);
  } finally {
    if (!closed) await closeAll(testInfo, guest);
  }
});

test('when the guest refuses the camera as the call starts, then no call is reported (none counted abandoned) and the guest is told what to fix', async ({}, testInfo) => {
  const admin = await consoleLogin(DEMO_ADMIN);
  const guest = await launchParticipant('guest');
  try {
    await guest.context.addInitScript(() => {
      MediaDevices.prototype.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    const previous = (await newestCall(admin))?.callId;
    const before = await totals(admin);
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();

    // the guest reads why it cannot call (the camera), and never entered the queue
    await expect(guest.page.locator('[data-screen="unsupported"]')).toBeVisible({ timeout: 15_000 });
    await expect(guest.page.getByText("We can't use your camera or microphone")).toBeVisible();
    // assert: no report was made for it (Reports count no call, abandoned or other, from this guest)
    await guest.page.waitForTimeout(2000); // a report, were one sent, would be in by now
    expect((await newestCall(admin))?.callId).toBe(previous);
    const after = await totals(admin);
    expect(after.calls - before.calls).toBe(0);
    expect(after.abandoned - before.abandoned).toBe(0);
  } finally {
    await closeAll(testInfo, guest);
  }
});
