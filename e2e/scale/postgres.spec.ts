/**
 * PostgreSQL restarted under both instances (docs/operations.md "Scaling"): every connection of theirs is
 * ended; each instance opens new ones at its next query, and the consoles carry on.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { guestCalls } from '../tests/incall-support.ts';
import { door, ensurePostgres, instanceOf, restartPostgres, watchErrors } from './instances.ts';

test.afterEach(async () => {
  await ensurePostgres();
});

test('when PostgreSQL restarts, then both instances answer from it again and a console on each signs in and is live', async ({}, testInfo) => {
  const one = await launchParticipant('agent-door-1', { baseURL: door(1) });
  const two = await launchParticipant('agent-door-2', { baseURL: door(2) });
  try {
    await agentSignsIn(one.page);
    await expect(one.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');

    await restartPostgres();

    // both instances reach the database again (health reads it), each through its own door
    for (const i of [1, 2] as const) {
      await expect
        .poll(async () => {
          const response = await fetch(`${door(i)}/api/health`);
          return `${response.status} ${instanceOf(response)}`;
        })
        .toBe(`200 ${i}`);
    }
    const seenTwo = watchErrors(two.page, 'door 2');
    await agentSignsIn(two.page);
    await expect(two.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    await one.page.reload();
    await expect(one.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    expect(new Set(seenTwo.instances)).toEqual(new Set(['2']));
    expect(seenTwo.errors).toEqual([]);
  } finally {
    await closeAll(testInfo, one, two);
  }
});

test('when PostgreSQL restarted, then a guest calling through instance 1 reaches the agent on instance 2, who answers', async ({}, testInfo) => {
  const agent = await launchParticipant('agent-door-2', { baseURL: door(2) });
  const guest = await launchParticipant('guest-door-1', { baseURL: door(1), viewport: { width: 1024, height: 768 } });
  try {
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    await restartPostgres();
    // the console already open resyncs: the call opened on instance 1 after the restart reaches it
    const agentSeen = watchErrors(agent.page, 'agent');
    await guestCalls(guest.page);
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    expect(agentSeen.errors).toEqual([]);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
