/**
 * ejabberd's guest events with instance 1 down (docs/operations.md "Scaling", "Calls whose guest
 * vanished"): mod_lobby_events posts each batch to one instance and, when that instance does not take it,
 * to the next (infra/ejabberd/modules/mod_lobby_events.erl). Instance 1 is killed; a waiting guest's browser
 * then dies without a word; ejabberd's leave reaches instance 2, which follows the room and closes the call
 * within half a minute, its guest_exit_at counted from the leave. Without the failover the leave is lost
 * and only the backstop's listing, once a minute, finds the guest gone, its count starting then.
 */
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, consoleLogin } from '../support/api.ts';
import { launchParticipant } from '../support/browser.ts';
import { closeAll } from '../support/journey.ts';
import { guestExitAt, newestCall, totals } from '../support/reports.ts';
import { door, killInstance, startInstances } from './instances.ts';

/** Whatever the journey broke, both instances run again for the journeys after it. */
test.afterEach(async () => {
  await startInstances();
});

/** Whether anything answers on instance 1's port (LOBBY_API_PORT, scripts/lib/instances.sh). */
async function instance1Answers(): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${process.env.LOBBY_API_PORT ?? 8091}/api/health`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

test('when instance 1 is killed and a waiting guest\u2019s browser dies, then ejabberd tells instance 2, which closes the call within half a minute', async ({}, testInfo) => {
  test.setTimeout(180_000);
  const admin = await consoleLogin(DEMO_ADMIN);
  const guest = await launchParticipant('guest-door-2', { baseURL: door(2) });
  let closed = false;
  try {
    const before = await totals(admin, door(2));
    const previous = (await newestCall(admin, door(2)))?.callId;
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();
    await expect.poll(async () => (await newestCall(admin, door(2)))?.callId).not.toBe(previous);
    const callId = (await newestCall(admin, door(2)))?.callId ?? '';
    expect(await guestExitAt(callId)).toBeNull();

    // act: instance 1, where ejabberd posted so far, dies; then the guest's browser dies, nothing it would say
    // on the way out reaching a server (as in a crash)
    await killInstance(1);
    expect(await instance1Answers()).toBe(false);
    await guest.context.route('**/api/call-report/**', (route) => route.abort());
    const closedAt = Date.now();
    await guest.context.close();
    closed = true;

    // assert: instance 2 heard the leave: it stamps the call after the guest's 20 s missing from its room
    // (asked every 3 s), counted from the leave (posted within a second of the browser's end); the
    // backstop alone would start its count at its next listing, up to a minute later
    await expect
      .poll(() => guestExitAt(callId), { message: 'the call is stamped as left by its guest', timeout: 45_000, intervals: [1000] })
      .not.toBeNull();
    const exitAt = (await guestExitAt(callId)) ?? 0;
    expect(exitAt - closedAt, 'guest_exit_at is the leave ejabberd posted, not a later listing').toBeGreaterThanOrEqual(-1000);
    expect(exitAt - closedAt, 'guest_exit_at is the leave ejabberd posted, not a later listing').toBeLessThan(5000);
    // not answered and left by its guest: Reports (served by instance 2) count it abandoned
    expect((await totals(admin, door(2))).abandoned - before.abandoned).toBeGreaterThanOrEqual(1);
  } finally {
    if (!closed) await closeAll(testInfo, guest);
  }
});
