/**
 * Several Janus nodes (docs/operations.md "Scaling"): each call's room is placed on the least-loaded
 * serving node and recorded on its row; the gate sends each browser's Janus requests to its room's node
 * through the one origin. A node the operator drains (`lobby-admin janus-drain`) gets no new room, and
 * its calls go on.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { decodedFramesDuring, expectMediaFlowing } from '../support/media.ts';
import { guestCalls, guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { makeAgent, type MadeAgent } from '../tests/routing-support.ts';
import { door, watchErrors } from './instances.ts';
import { expectBothServingAndEven, lobbyAdmin, nodeOfCall, NODES } from './janusNodes.ts';

/** The second agent signs in and answers the guest's call (the first agent is busy in its own). */
async function secondCallAnswered(
  agent: LaunchedBrowser,
  guest: LaunchedBrowser,
  user: MadeAgent,
): Promise<string> {
  await agentSignsIn(agent.page, user);
  await guestCalls(guest.page);
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  const callId = (await item.getAttribute('data-call-id')) ?? '';
  await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-media-ready', 'true');
  await item.getByTestId('answer-button').click();
  await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await expectMediaFlowing(guest.page, 'second guest');
  await expectMediaFlowing(agent.page, 'second agent');
  return callId;
}

/** Call A's browsers through instance 1's front door, call B's through instance 2's; the caller closes them. */
async function launchTwoPairs(): Promise<Record<'agentA' | 'guestA' | 'agentB' | 'guestB', LaunchedBrowser>> {
  const viewport = { width: 1024, height: 768 };
  return {
    agentA: await launchParticipant('agent-a-door-1', { baseURL: door(1) }),
    guestA: await launchParticipant('guest-a-door-1', { baseURL: door(1), viewport }),
    agentB: await launchParticipant('agent-b-door-2', { baseURL: door(2) }),
    guestB: await launchParticipant('guest-b-door-2', { baseURL: door(2), viewport }),
  };
}

async function hangUp(agent: LaunchedBrowser): Promise<void> {
  await agent.page.getByTestId('agent-hangup-button').click();
  await expect(agent.page.getByTestId('call-idle')).toBeVisible();
}

test.afterEach(async () => {
  for (const node of NODES) await lobbyAdmin('janus-undrain', node);
});

test('when two calls are open at once, then their rooms are on the two Janus nodes, each row names its node, and media flows in both', async ({}, testInfo) => {
  test.setTimeout(300_000);
  await expectBothServingAndEven();
  const second = await makeAgent('JanusNodes', ['Sales']);
  const { agentA, guestA, agentB, guestB } = await launchTwoPairs();
  try {
    const seen = [
      watchErrors(agentA.page, 'agent A'),
      watchErrors(guestA.page, 'guest A'),
      watchErrors(agentB.page, 'agent B'),
      watchErrors(guestB.page, 'guest B'),
    ];
    const { callId: callA } = await guestCallsAndAgentAnswers(agentA, guestA);
    const callB = await secondCallAnswered(agentB, guestB, second);
    const nodeA = await nodeOfCall(callA);
    const nodeB = await nodeOfCall(callB);
    expect(new Set([nodeA, nodeB])).toEqual(new Set(NODES));
    // both calls at once, each on its node: decoded frames on all four screens
    for (const [page, tag] of [
      [guestA.page, 'guest A'],
      [agentA.page, 'agent A'],
      [guestB.page, 'guest B'],
      [agentB.page, 'agent B'],
    ] as const) {
      await expectMediaFlowing(page, `${tag} (${tag.endsWith('A') ? nodeA : nodeB})`);
    }
    await screenshot(guestB.page, testInfo, 'scale-janus-nodes-guest-b');
    await hangUp(agentA);
    await hangUp(agentB);
    expect(seen.flatMap((s) => s.errors)).toEqual([]);
  } finally {
    await closeAll(testInfo, agentA, guestA, agentB, guestB);
  }
});

test('when the node of a call is drained mid-call, then that call goes on with frames flowing and a new call goes to the other node', async ({}, testInfo) => {
  test.setTimeout(300_000);
  await expectBothServingAndEven();
  const second = await makeAgent('JanusDrain', ['Sales']);
  const { agentA, guestA, agentB, guestB } = await launchTwoPairs();
  try {
    const seen = [watchErrors(agentA.page, 'agent A'), watchErrors(guestA.page, 'guest A')];
    const { callId: callA } = await guestCallsAndAgentAnswers(agentA, guestA);
    const drained = await nodeOfCall(callA);
    expect(NODES).toContain(drained);
    const other = NODES.find((n) => n !== drained);

    // act: the operator drains the call's node, then a second call opens; frames of the first sampled all along
    let callB = '';
    const frames = await decodedFramesDuring(guestA.page, agentA.page, async () => {
      expect(await lobbyAdmin('janus-drain', drained ?? '')).toContain(`${drained}: draining`);
      callB = await secondCallAnswered(agentB, guestB, second);
    });

    // assert: the drained node's call never stopped; the new one is on the other node
    expect(frames.longestStall.guest, 'longest stall of decoded frames at guest A (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at agent A (ms)').toBeLessThan(2000);
    expect(await nodeOfCall(callB)).toBe(other);
    expect(await lobbyAdmin('janus-nodes')).toMatch(new RegExp(`^${drained}\\tdraining\\t`, 'm'));
    await expectMediaFlowing(guestA.page, 'guest A on the drained node');
    await screenshot(agentA.page, testInfo, 'scale-janus-drain-agent-a');
    await hangUp(agentA);
    await hangUp(agentB);
    expect(seen.flatMap((s) => s.errors)).toEqual([]);
  } finally {
    await closeAll(testInfo, agentA, guestA, agentB, guestB);
  }
});
