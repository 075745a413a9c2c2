/**
 * An instance killed with a round-robin offer pending (docs/architecture.md "Shared state"): the instance
 * that opened the call made the offer and timed it; it dies (SIGKILL) before the deadline. The offer is a
 * row in PostgreSQL, so the other instance's poll claims it when it is due and moves it, once: the other
 * agent is offered the call, on time, and nobody is offered it twice.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { guestCalls } from '../tests/incall-support.ts';
import { adminApi, makeAgent } from '../tests/routing-support.ts';
import { door, killInstance, startInstances } from './instances.ts';

/** Whatever the journey broke, both instances run again for the journeys after it. */
test.afterEach(async () => {
  await startInstances();
});

// long enough that the kill lands well before the deadline on a loaded machine
const OFFER_SECONDS = 20;

interface RoutingRow {
  state: string;
  offered_user_id: number | null;
  expires_at: number | null;
  offer_ms: number;
  tried: string;
}

const routingOf = async (callId: string) =>
  (await queryRows<RoutingRow>('select state, offered_user_id, expires_at, offer_ms, tried from call_routing where call_id = ?', [callId]))[0];

/** How many offer countdowns each console shows. */
const countdowns = (pages: Page[]) => Promise.all(pages.map((p) => p.getByTestId('offer-countdown').count()));

test('when the instance that made a round-robin offer is killed, then the offer moves to the other agent at its deadline, exactly once', async ({}, testInfo) => {
  test.setTimeout(240_000);
  await adminApi('PUT', '/admin/company', { roundRobinOfferSeconds: OFFER_SECONDS });
  const second = await makeAgent('ScaleOffer', ['Sales']);
  const onTwo = await launchParticipant('agent-door-2', { baseURL: door(2) });
  const onOne = await launchParticipant('agent2-door-1', { baseURL: door(1) });
  // the guest on instance 2: it opens the call there, and instance 2 makes the first offer and times it
  const guest = await launchParticipant('guest-door-2', { baseURL: door(2) });
  try {
    await agentSignsIn(onTwo.page);
    await agentSignsIn(onOne.page, second);
    const pages = [onTwo.page, onOne.page];
    for (const page of pages) await expect(page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');

    await guestCalls(guest.page);
    await expect.poll(async () => (await countdowns(pages)).reduce((a, b) => a + b, 0)).toBe(1);
    const first = (await countdowns(pages)).indexOf(1);
    const firstPage = pages[first]!;
    const nextPage = pages[1 - first]!;
    const callId = (await firstPage.getByTestId('queue-item').getAttribute('data-call-id')) ?? '';
    const offered = await routingOf(callId);
    expect(offered?.state).toBe('offered');
    const firstAgent = offered!.offered_user_id!;
    expect(JSON.parse(offered!.tried)).toEqual([firstAgent]);
    const deadline = Number(offered!.expires_at);
    // the kill lands before the deadline (else this journey would prove nothing of the poll)
    expect(deadline - Date.now()).toBeGreaterThan(5000);

    // act: instance 2, which made the offer and holds its timer, dies
    await killInstance(2);
    expect(Date.now()).toBeLessThan(deadline);

    // assert: at the deadline the other agent is offered the call: one queue item with a countdown
    const moved = nextPage.getByTestId('queue-item');
    await expect(moved).toHaveAttribute('data-call-id', callId, { timeout: (OFFER_SECONDS + 15) * 1000 });
    await expect(moved.getByTestId('offer-countdown')).toBeVisible();
    const after = await routingOf(callId);
    expect(after?.state).toBe('offered');
    const nextAgent = after!.offered_user_id!;
    expect(nextAgent).not.toBe(firstAgent);
    // one move on record: the first agent, then the next, each once
    expect(JSON.parse(after!.tried)).toEqual([firstAgent, nextAgent]);
    const movedAt = Number(after!.expires_at) - after!.offer_ms;
    const lateness = movedAt - deadline;
    console.log(`offer moved by the surviving instance ${lateness} ms after its deadline`);
    expect(lateness, 'the move is not early').toBeGreaterThanOrEqual(0);
    expect(lateness, 'the move is at most a poll or two late (ms)').toBeLessThan(3000);
    await screenshot(nextPage, testInfo, 'scale-offer-moved');

    // assert: exactly once: a few seconds on, the offer is the same one (not made again, not moved twice),
    // the next agent lists the call once, and the first agent's console no longer shows it offered
    await nextPage.waitForTimeout(3000);
    expect(await routingOf(callId)).toEqual(after);
    await expect(moved).toHaveCount(1);
    await expect(nextPage.getByTestId('offer-countdown')).toHaveCount(1);
    await expect(firstPage.getByTestId('offer-countdown')).toHaveCount(0);

    // the guest gives up: its cancel reaches the next agent's console through the surviving instance
    await guest.page.getByTestId('cancel-button').click();
    await expect(nextPage.getByTestId('queue-empty')).toBeVisible();
  } finally {
    await closeAll(testInfo, onTwo, onOne, guest);
  }
});
