/**
 * Round robin across instances (docs/architecture.md "Shared state"): two agents whose consoles use
 * different instances share one rotation in PostgreSQL. Two calls opened on instance 1 go one to each
 * agent; each agent declines its own, through its own instance (so one decline reaches the instance that
 * did not make the offer), and each call moves to the other agent.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { guestCalls } from '../tests/incall-support.ts';
import { adminApi, makeAgent } from '../tests/routing-support.ts';
import { door, watchErrors } from './instances.ts';

// long enough for two guests to call and both agents to decline on a loaded machine
const OFFER_SECONDS = 40;

/** The calls a console lists with an offer countdown (offered to this agent), by call id. */
async function offeredTo(page: Page): Promise<string[]> {
  const items = page.getByTestId('queue-item').filter({ has: page.getByTestId('offer-countdown') });
  const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-call-id') ?? ''));
  return ids.sort();
}

test('when two agents are on different instances, then calls are offered to each in turn, and a decline through either instance moves the call to the other agent', async ({}, testInfo) => {
  test.setTimeout(240_000);
  await adminApi('PUT', '/admin/company', { roundRobinOfferSeconds: OFFER_SECONDS });
  const second = await makeAgent('ScaleRotation', ['Sales']);
  const one = await launchParticipant('agent-door-1', { baseURL: door(1) });
  const two = await launchParticipant('agent2-door-2', { baseURL: door(2) });
  const guests = [await launchParticipant('guest-a-door-1', { baseURL: door(1) }), await launchParticipant('guest-b-door-1', { baseURL: door(1) })];
  try {
    const seen = [watchErrors(one.page, 'door 1'), watchErrors(two.page, 'door 2')];
    await agentSignsIn(one.page);
    await agentSignsIn(two.page, second);
    const pages = [one.page, two.page];
    for (const page of pages) await expect(page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');

    // two guests call through instance 1, one after the other: one call offered to each agent
    const calls: string[] = [];
    for (const guest of guests) {
      await guestCalls(guest.page);
      await expect.poll(async () => (await offeredTo(one.page)).length + (await offeredTo(two.page)).length).toBe(calls.length + 1);
      const all = [...(await offeredTo(one.page)), ...(await offeredTo(two.page))];
      calls.push(all.find((id) => !calls.includes(id))!);
    }
    const first = await offeredTo(one.page);
    const other = await offeredTo(two.page);
    expect(first).toHaveLength(1);
    expect(other).toHaveLength(1);
    expect([...first, ...other].sort()).toEqual([...calls].sort());
    await screenshot(two.page, testInfo, 'scale-rotation-offered');

    // each agent declines its own call through its own instance: each call moves to the other agent
    await one.page.getByTestId('queue-item').filter({ has: one.page.getByTestId('offer-countdown') }).getByTestId('decline-button').click();
    await expect.poll(() => offeredTo(two.page)).toEqual([...first, ...other].sort());
    await two.page.locator(`[data-testid="queue-item"][data-call-id="${other[0]}"]`).getByTestId('decline-button').click();
    await expect.poll(() => offeredTo(one.page)).toEqual(other);
    await expect.poll(() => offeredTo(two.page)).toEqual(first);

    expect(new Set(seen[0]!.instances)).toEqual(new Set(['1']));
    expect(new Set(seen[1]!.instances)).toEqual(new Set(['2']));
    expect([...seen[0]!.errors, ...seen[1]!.errors]).toEqual([]);

    // the guests give up: both consoles' queues empty
    for (const guest of guests) await guest.page.getByTestId('cancel-button').click();
    for (const page of pages) await expect(page.getByTestId('queue-empty')).toBeVisible();
  } finally {
    await closeAll(testInfo, one, two, ...guests);
  }
});
