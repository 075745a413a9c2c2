/**
 * Round robin: with two agents of the assignment signed in, a waiting call is offered to one
 * of them at a time (with a countdown); a decline moves it to the other, who answers; an offer nobody
 * takes in time moves on, and with nobody left the call is open to every agent.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { adminApi, makeAgent } from './routing-support.ts';

// Long enough that the guest (which reports its call before it sets up its media and announces itself)
// is listed while the offer still runs, even on a loaded machine; the timeout part waits it out.
const OFFER_SECONDS = 20;

async function guestCalls(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
}

/** The console that lists the call with an offer countdown, once one does. */
async function offeredConsole(pages: Page[]): Promise<number> {
  let index = -1;
  await expect
    .poll(async () => {
      const counts = await Promise.all(pages.map((p) => p.getByTestId('offer-countdown').count()));
      index = counts.indexOf(1);
      return counts.reduce((a, b) => a + b, 0);
    })
    .toBe(1);
  return index;
}

test('when two agents are on, then a call is offered to one, a decline moves it to the other who answers, and an offer nobody takes opens to all', async ({}, testInfo) => {
  test.setTimeout(300_000); // three browsers with media, and an offer that must run out
  const second = await makeAgent('Rotation', ['Sales']);
  await adminApi('PUT', '/admin/company', { roundRobinOfferSeconds: OFFER_SECONDS }); // the default, said explicitly
  const agents = [await launchParticipant('agent-demo'), await launchParticipant('agent-rotation')];
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  const nextGuest = await launchParticipant('next-guest');
  try {
    await agentSignsIn(agents[0]!.page);
    await agentSignsIn(agents[1]!.page, second);
    // both consoles are live: the server counts them for round robin
    for (const a of agents)
      await expect(a.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const pages = agents.map((a) => a.page);

    await guestCalls(guest.page);
    const first = await offeredConsole(pages);
    const firstPage = pages[first]!;
    const otherPage = pages[1 - first]!;
    const offered = firstPage.getByTestId('queue-item');
    await expect(offered).toHaveCount(1);
    const callId = (await offered.getAttribute('data-call-id')) ?? '';
    const seconds = Number(await offered.getByTestId('offer-countdown').getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(OFFER_SECONDS);
    await expect(otherPage.getByTestId('queue-empty')).toBeVisible(); // offered to one agent only
    await screenshot(firstPage, testInfo, 'routing-round-robin-offered');

    // the first agent declines: the other is offered it, the first no longer lists it
    await offered.getByTestId('decline-button').click();
    const moved = otherPage.getByTestId('queue-item');
    await expect(moved).toHaveAttribute('data-call-id', callId);
    await expect(moved.getByTestId('offer-countdown')).toBeVisible();
    await expect(firstPage.getByTestId('queue-empty')).toBeVisible();

    await moved.getByTestId('answer-button').click();
    const answeringJid = await consoleUserJid(otherPage);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(otherPage.getByTestId('active-call')).toHaveAttribute(
      'data-guest-presence',
      `InCall|${answeringJid}|${callId}`,
    );
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(otherPage, 'agent');

    // a second guest: the answering agent is busy, so the first is offered it; it lets the offer run out
    // and, nobody else being available, the call is open to all (listed, no countdown)
    await guestCalls(nextGuest.page);
    const next = firstPage.getByTestId('queue-item');
    await expect(next.getByTestId('offer-countdown')).toBeVisible();
    await expect(next.getByTestId('offer-countdown')).toHaveCount(0, {
      timeout: (OFFER_SECONDS + 10) * 1000,
    });
    await expect(next).toHaveCount(1);
    await screenshot(firstPage, testInfo, 'routing-round-robin-open');
  } finally {
    await closeAll(testInfo, ...agents, guest, nextGuest);
  }
});

test("when the agent's clock is half a minute behind the server's, then the offer still counts down from no more than the company's offer time", async ({}, testInfo) => {
  await adminApi('PUT', '/admin/company', { roundRobinOfferSeconds: OFFER_SECONDS });
  const agent = await launchParticipant('agent-late-clock');
  const guest = await launchParticipant('guest-late-clock');
  try {
    // arrange: the console's clock runs 30 s behind (the server's deadline would read 50 s there)
    await agent.page.clock.install({ time: Date.now() - 30_000 });
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');

    // act: a guest calls; round robin offers it to the only agent
    await guestCalls(guest.page);
    const countdown = agent.page.getByTestId('offer-countdown');
    await expect(countdown).toBeVisible();

    // assert: the countdown starts within the offer time and goes down
    const first = Number(await countdown.getAttribute('data-seconds'));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(OFFER_SECONDS);
    await expect.poll(async () => Number(await countdown.getAttribute('data-seconds'))).toBeLessThan(first);
    await screenshot(agent.page, testInfo, 'routing-round-robin-late-clock');

    // act: the agent switches its console to Arabic
    await agent.page.locator('[data-language="ar"]').click();
    await expect(agent.page.locator('html')).toHaveAttribute('dir', 'rtl');

    // assert: the badge counts in Arabic seconds (ث), never " s"
    const badge = countdown.locator('[aria-hidden="true"]').last();
    await expect(badge).toContainText('ث');
    await expect(badge).not.toContainText(' s');
    await expect(countdown).not.toContainText(/\d\s*s\b/);
    await screenshot(agent.page, testInfo, 'routing-round-robin-late-clock-ar');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
