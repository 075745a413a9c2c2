/**
 * The topology itself (docs/operations.md "Scaling"), which holds without any event crossing instances:
 * each front door reaches the instance it names, the shared door spreads the requests over both, and an
 * instance that drains (SIGTERM) costs a browser and plain API traffic nothing: no failed request, no 5xx,
 * the console's event stream live again through the other instance.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { makeAgent } from '../tests/routing-support.ts';
import { SHARED_DOOR, door, drainInstance, instanceOf, startInstances, watchErrors } from './instances.ts';

test.afterEach(async () => {
  await startInstances();
});

test('when a browser comes through a front door, then the instance it names answers; the shared door spreads requests over both', async ({}, testInfo) => {
  const second = await makeAgent('Door', ['Sales']);
  const one = await launchParticipant('agent-door-1', { baseURL: door(1) });
  const two = await launchParticipant('agent-door-2', { baseURL: door(2) });
  try {
    const seenOne = watchErrors(one.page, 'door 1');
    const seenTwo = watchErrors(two.page, 'door 2');
    await agentSignsIn(one.page);
    await agentSignsIn(two.page, second);
    await expect(one.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    await expect(two.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    expect(seenOne.instances.length).toBeGreaterThan(0);
    expect(new Set(seenOne.instances)).toEqual(new Set(['1']));
    expect(seenTwo.instances.length).toBeGreaterThan(0);
    expect(new Set(seenTwo.instances)).toEqual(new Set(['2']));
    expect([...seenOne.errors, ...seenTwo.errors]).toEqual([]);

    const shared = new Set<string | null>();
    for (let i = 0; i < 8; i++) shared.add(instanceOf(await fetch(`${SHARED_DOOR}/api/health`)));
    expect(shared).toEqual(new Set(['1', '2']));
  } finally {
    await closeAll(testInfo, one, two);
  }
});

/** GETs and POSTs (a guest's registration: not idempotent) through the shared door until told to stop. */
function apiTraffic(): { stop(): Promise<{ statuses: Map<number, number>; failures: string[]; instances: Set<string> }> } {
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const instances = new Set<string>();
  let stopped = false;
  const loop = (async () => {
    // bounded: at most 600 requests, whatever happens to the stop
    for (let n = 0; n < 600 && !stopped; n++) {
      const post = n % 2 === 1;
      try {
        const response = post
          ? await fetch(`${SHARED_DOOR}/api/guest/register`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ guestId: randomUUID().replaceAll('-', ''), companyId: 18 }),
            })
          : await fetch(`${SHARED_DOOR}/api/company/details?companyId=18`);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const instance = instanceOf(response);
        if (instance) instances.add(instance);
      } catch (err) {
        failures.push(`${post ? 'POST' : 'GET'}: ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { statuses, failures, instances };
    },
  };
}

test('when the instance a console uses drains, then the browser and plain API traffic see no error and the console is live again through the other instance', async ({}, testInfo) => {
  const agent = await launchParticipant('agent-door-2', { baseURL: door(2) });
  try {
    const seen = watchErrors(agent.page, 'agent');
    await agentSignsIn(agent.page);
    const panel = agent.page.getByTestId('queue-panel');
    await expect(panel).toHaveAttribute('data-live', 'true');
    expect(new Set(seen.instances)).toEqual(new Set(['2']));

    // act: API traffic runs through the shared door while instance 2 drains; the agent reloads the console
    const traffic = apiTraffic();
    await new Promise((r) => setTimeout(r, 1000));
    const draining = drainInstance(2);
    for (let i = 0; i < 3; i++) {
      await agent.page.reload();
      await expect(agent.page.locator('[data-screen="workspace"]')).toBeVisible();
    }
    const drainMs = await draining;
    await new Promise((r) => setTimeout(r, 1000));
    const { statuses, failures, instances } = await traffic.stop();

    // assert: the drain ended well within its deadline (LOBBY_DRAIN_SECONDS, 20 s)
    expect(drainMs).toBeLessThan(20_000);
    // assert: no request failed and none was answered 5xx, the POSTs included; both instances served
    expect(failures).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(20);
    expect(instances).toEqual(new Set(['1', '2']));
    // assert: the console is live again, now through instance 1 (its door's backup)
    await expect(panel).toHaveAttribute('data-live', 'true');
    const after = seen.instances.length;
    await agent.page.reload();
    await expect(panel).toHaveAttribute('data-live', 'true');
    expect(new Set(seen.instances.slice(after))).toEqual(new Set(['1']));
    expect(seen.errors).toEqual([]);
  } finally {
    await closeAll(testInfo, agent);
  }
});
