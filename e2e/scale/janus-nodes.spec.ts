/**
 * Several Janus nodes (docs/operations.md "Scaling"): each call's room is placed on the least-loaded
 * serving node and recorded on its row; the gate sends each browser's Janus requests to its room's node
 * through the one origin. A node the operator drains (`lobby-admin janus-drain`) gets no new room, and
 * its calls go on. A node that dies and stays down: its calls move to the other node (docs/protocol.md
 * "Media session lost").
 */
import { expect, test } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn, closeAll, hangUpWhatIsLeft, screenshot } from '../support/journey.ts';
import { expectReportEnded, queryRows } from '../support/db.ts';
import { decodedFramesDuring, expectMediaFlowing, watchFrames } from '../support/media.ts';
import { expectRecordingCoversCall } from '../support/recordingMix.ts';
import { killServer, startServer } from '../support/stack.ts';
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
  await expectMediaFlowing(guest.page, 'second guest', 2000, agent.page);
  await expectMediaFlowing(agent.page, 'second agent', 2000, guest.page);
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
  // a node a journey killed runs again (start_janus starts every node that is not running)
  await startServer('janus');
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
    await hangUpWhatIsLeft(agentA, agentB);
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
    await hangUpWhatIsLeft(agentA, agentB);
    await closeAll(testInfo, agentA, guestA, agentB, guestB);
  }
});

test('when the Janus node of a call is killed mid-call and stays down, then the call goes on on the other node: frames and audio back at both sides, the room on the other node, no notice, one report not failed, its recording over both nodes', async ({}, testInfo) => {
  test.setTimeout(300_000);
  await expectBothServingAndEven();
  const agent = await launchParticipant('agent-node-killed', { baseURL: door(1) });
  const guest = await launchParticipant('guest-node-killed', { baseURL: door(1), viewport: { width: 1024, height: 768 } });
  try {
    // arrange: a call with media both ways, on one of the two nodes
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const killed = await nodeOfCall(callId);
    expect(NODES).toContain(killed);
    const other = NODES.find((n) => n !== killed);
    const guestNotice = guest.page.getByTestId('media-notice');
    const agentNotice = agent.page.getByTestId('agent-media-notice');

    // act: the call's node dies (SIGKILL, as a crash) and is not started again
    // (frames watched from before the kill: the move can be over before the kill's command returns)
    const guestWatch = watchFrames(guest.page, 'guest');
    const agentWatch = watchFrames(agent.page, 'agent');
    const killedAt = await killServer(killed === 'janus-1' ? 'janus' : 'janus-2');

    // assert: both sides decode frames again, soon after the loss was noticed
    const [guestBack, agentBack] = await Promise.all([guestWatch.backAfter(killedAt, 60_000), agentWatch.backAfter(killedAt, 60_000)]);
    const times = { guestFramesBackMs: guestBack - killedAt, agentFramesBackMs: agentBack - killedAt };
    console.log(`Janus node ${killed} killed → frames back on ${other}: ${JSON.stringify(times)}`);
    await testInfo.attach('janus-node-killed-to-frames', { body: JSON.stringify(times, null, 2), contentType: 'application/json' });
    expect(Math.max(guestBack, agentBack) - killedAt, 'from the kill to frames back at both sides (ms)').toBeLessThan(30_000);

    // assert: the room's row names the other node; the notices are gone; media flows both ways in the same call
    expect(await nodeOfCall(callId)).toBe(other);
    await expect(guestNotice).toHaveCount(0, { timeout: 30_000 });
    await expect(agentNotice).toHaveCount(0, { timeout: 30_000 });
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${callId}`);
    await expectMediaFlowing(guest.page, `guest on ${other}`);
    await expectMediaFlowing(agent.page, `agent on ${other}`);
    await screenshot(guest.page, testInfo, 'scale-janus-node-killed-guest-continues');
    await screenshot(agent.page, testInfo, 'scale-janus-node-killed-agent-continues');

    // act: they talk on a little on the other node, then the agent hangs up
    await guest.page.waitForTimeout(4000);
    await hangUp(agent);

    // assert: one report for the call, ended and not failed
    await expectReportEnded(callId);
    const [guestUsername] = callId.split('--');
    const reports = await queryRows<{ call_id: string; success: number | null }>('select call_id, success from call_reports where call_id like ?', [`${guestUsername}--%`]);
    expect(reports.map((r) => r.call_id)).toEqual([callId]);
    expect(reports[0]?.success).not.toBe(0);

    // assert: the recording continued on the other node: both parts of each publisher (written by each
    // node into the shared recordings folder), mixed over the whole call with sound at its end
    const { url, adminCookie } = await expectRecordingCoversCall(testInfo, { callId, agentJid });
    // every instance serves it: they read one recordings folder, whichever node wrote the parts
    for (const instance of [1, 2] as const) {
      const response = await fetch(`${door(instance)}${url}`, { method: 'HEAD', headers: { cookie: adminCookie } });
      expect(response.status, `the recording through instance ${instance}'s door`).toBe(200);
    }
  } finally {
    await hangUpWhatIsLeft(agent);
    await closeAll(testInfo, agent, guest);
  }
});
