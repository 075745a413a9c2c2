/**
 * An instance killed mid-call (docs/operations.md "Scaling", "What each failure costs"): the instance
 * that set the call up, and whose event stream the agent's console uses, gets SIGKILL. No drain, no
 * `closing` event: the console's stream is cut and the browser reconnects through nginx to the other
 * instance. The call's media and chat do not pass through any instance (Janus, ejabberd), so they go on;
 * what the call does next (hold, transfer, the end) is served by the other instance, from PostgreSQL.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { expectReportEnded, queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { decodedFramesDuring, expectMediaFlowing } from '../support/media.ts';
import { chatBothWays, guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { makeAgent, transferAndAccept } from '../tests/routing-support.ts';
import { door, instanceOf, killInstance, startInstances, watchErrors } from './instances.ts';

/** Whatever the journey broke, both instances run again for the journeys after it. */
test.afterEach(async () => {
  await startInstances();
});

test('when the instance that set a call up is killed mid-call, then media never stalls 2 s, the console is live through the other instance, and chat, hold, transfer and the end still work', async ({}, testInfo) => {
  test.setTimeout(300_000);
  const taker = await makeAgent('ScaleKill', ['Sales']);
  // the guest and the agent on instance 2: it opens the call, takes the answer and holds the agent's stream
  const agent = await launchParticipant('agent-door-2', { baseURL: door(2) });
  const guest = await launchParticipant('guest-door-2', { baseURL: door(2), viewport: { width: 1024, height: 768 } });
  const other = await launchParticipant('taker-door-1', { baseURL: door(1) });
  try {
    const agentSeen = watchErrors(agent.page, 'agent');
    const guestSeen = watchErrors(guest.page, 'guest');
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const panel = agent.page.getByTestId('queue-panel');
    await expect(panel).toHaveAttribute('data-live', 'true');
    expect(new Set([...agentSeen.instances, ...guestSeen.instances])).toEqual(new Set(['2']));
    await agentSignsIn(other.page, taker);
    await expect(other.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const takerJid = await consoleUserJid(other.page);

    // acknowledged before the kill: the answer (in PostgreSQL) and a chat exchange (shown on both sides)
    await chatBothWays(guest.page, agent.page, 'before the kill');
    const answered = async () =>
      (await queryRows<{ call_answered_at: number | null; agent: string | null }>('select call_answered_at, agent from call_reports where call_id = ?', [callId]))[0];
    await expect.poll(async () => (await answered())?.call_answered_at ?? 0).toBeGreaterThan(0);
    const before = await answered();

    // act: SIGKILL to instance 2 while both sides' media is sampled, until the console is live again
    let killedAt = 0;
    let liveAgainMs = 0;
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      // the console's event stream opened again, answered by instance 1
      const reopened = agent.page.waitForResponse((r) => r.url().includes('/api/console/events') && instanceOf(r) === '1', { timeout: 30_000 });
      await killInstance(2);
      const killed = Date.now();
      killedAt = agentSeen.instances.length;
      await reopened;
      liveAgainMs = Date.now() - killed;
      await expect(panel).toHaveAttribute('data-live', 'true', { timeout: 30_000 });
      // and a few seconds of the call after it
      await new Promise((r) => setTimeout(r, 3000));
    });
    console.log(`kill mid-call: console live again ${liveAgainMs} ms after the kill; ${JSON.stringify(frames)}; errors while recovering: ${JSON.stringify([...agentSeen.errors, ...guestSeen.errors])}`);
    const recovered = { agent: agentSeen.errors.length, guest: guestSeen.errors.length };

    // assert: the media never stopped on either side, video nor audio
    expect(frames.samples).toBeGreaterThanOrEqual(6);
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
    expect(frames.longestAudioStall.guest, 'longest stall of received audio packets at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestAudioStall.agent, 'longest stall of received audio packets at the agent (ms)').toBeLessThan(2000);

    // assert: nothing acknowledged is lost: the answer as it was, the chat before the kill still shown, once
    expect(await answered()).toEqual(before);
    for (const page of [guest.page, agent.page]) {
      await expect(page.getByTestId('chat-message').filter({ hasText: 'agent before the kill' })).toHaveCount(1);
      await expect(page.getByTestId('chat-message').filter({ hasText: 'guest before the kill' })).toHaveCount(1);
    }

    // chat after the kill
    await chatBothWays(guest.page, agent.page, 'after the kill');

    // hold and resume, served by instance 1: the guest sees the hold page, then a new linked call
    const call = agent.page.getByTestId('active-call');
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(guest.page.getByTestId('hold-page')).toBeVisible();
    await expect(call).toHaveAttribute('data-held', 'true');
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(call).toHaveAttribute('data-held', 'false');
    await expect(call).not.toHaveAttribute('data-call-id', callId);
    const resumedId = (await call.getAttribute('data-call-id')) ?? '';
    await expect(guest.page.getByTestId('hold-page')).toHaveCount(0);
    await expect(call).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${resumedId}`);
    await expectMediaFlowing(guest.page, 'guest after resume');

    // transfer to the agent on instance 1; the acceptance is an event on the agent's reconnected stream:
    // the agent leaves the call only when it arrives
    await transferAndAccept(agent.page, other.page, takerJid, resumedId);
    await expect(call).toHaveCount(0);
    await expect(other.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${takerJid}|${resumedId}`);
    await expectMediaFlowing(guest.page, 'guest with the new agent');
    await expectMediaFlowing(other.page, 'taker');
    await screenshot(other.page, testInfo, 'scale-kill-taker');

    // the end, recorded by instance 1
    await other.page.getByTestId('agent-hangup-button').click();
    await expect(other.page.getByTestId('call-idle')).toBeVisible();
    await expectReportEnded(resumedId);
    const [report] = await queryRows<{ agent: string | null }>('select agent from call_reports where call_id = ?', [resumedId]);
    expect(report?.agent).toBe(takerJid);

    // every request of the agent's console after the kill went to instance 1, and none failed once it was
    // live again (a request cut by the kill itself may fail: docs/operations.md "What each failure costs")
    expect(new Set(agentSeen.instances.slice(killedAt))).toEqual(new Set(['1']));
    expect(agentSeen.errors.slice(recovered.agent)).toEqual([]);
    expect(guestSeen.errors.slice(recovered.guest)).toEqual([]);
  } finally {
    await closeAll(testInfo, agent, guest, other);
  }
});
