/**
 * Drain in a call (docs/operations.md "Scaling"): the instance the agent's console uses gets SIGTERM while
 * the agent works. The call's media and chat do not pass through it (nginx sends them to Janus and
 * ejabberd); its event stream is ended with a `closing` event and the console reconnects through nginx to
 * the other instance; no request of either browser fails.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { expectReportEnded } from '../support/db.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { decodedFramesDuring } from '../support/media.ts';
import { chatBothWays, guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { door, drainInstance, startInstances, watchErrors } from './instances.ts';

test.afterEach(async () => {
  await startInstances();
});

test('when the instance the agent\u2019s console uses drains mid-call, then neither browser sees an error, media goes on and the console is live again through the other instance', async ({}, testInfo) => {
  // both browsers on instance 2 at first, so the call starts whatever crosses instances
  const agent = await launchParticipant('agent-door-2', { baseURL: door(2) });
  const guest = await launchParticipant('guest-door-2', { baseURL: door(2), viewport: { width: 1024, height: 768 } });
  try {
    const agentSeen = watchErrors(agent.page, 'agent');
    const guestSeen = watchErrors(guest.page, 'guest');
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    const panel = agent.page.getByTestId('queue-panel');
    await expect(panel).toHaveAttribute('data-live', 'true');
    expect(new Set(agentSeen.instances)).toEqual(new Set(['2']));

    // act: SIGTERM to instance 2 while the agent chats with the guest; frames sampled all along
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      const draining = drainInstance(2);
      await chatBothWays(guest.page, agent.page, 'during the drain');
      expect(await draining).toBeLessThan(20_000);
      await expect(panel).toHaveAttribute('data-live', 'true', { timeout: 30_000 });
    });

    // assert: the media never stopped, the console works through instance 1
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
    const after = agentSeen.instances.length;
    await chatBothWays(guest.page, agent.page, 'after the drain');
    await screenshot(agent.page, testInfo, 'scale-drain-agent');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expectReportEnded(callId);
    expect(new Set(agentSeen.instances.slice(after))).toEqual(new Set(['1']));
    expect([...agentSeen.errors, ...guestSeen.errors]).toEqual([]);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
