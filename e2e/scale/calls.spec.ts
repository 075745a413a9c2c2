/**
 * Calls across instances (docs/operations.md "Scaling"): the guest's browser uses one instance and the
 * agent's the other, so what one instance learns (a guest opened a call, a transfer is offered) must reach
 * the consoles on the other through the event bus on PostgreSQL.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { makeAgent, transferAndAccept } from '../tests/routing-support.ts';
import { door, watchErrors } from './instances.ts';

test('when a guest calls through instance 1 and the agent signed in through instance 2, then the agent sees the guest, answers, and both get media', async ({}, testInfo) => {
  const agent = await launchParticipant('agent-door-2', { baseURL: door(2) });
  const guest = await launchParticipant('guest-door-1', { baseURL: door(1), viewport: { width: 1024, height: 768 } });
  try {
    const agentSeen = watchErrors(agent.page, 'agent');
    const guestSeen = watchErrors(guest.page, 'guest');
    // the guest calls (its call is opened on instance 1), the agent (on instance 2) sees it and answers;
    // the helper checks decoded frames and received audio on both sides
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    await screenshot(agent.page, testInfo, 'scale-agent-call');
    expect(new Set(guestSeen.instances)).toEqual(new Set(['1']));
    expect(new Set(agentSeen.instances)).toEqual(new Set(['2']));
    const [report] = await queryRows<{ status: string; call_answered_at: number | null }>('select status, call_answered_at from call_reports where call_id = ?', [callId]);
    expect(report?.call_answered_at).toBeGreaterThan(0);
    expect([...agentSeen.errors, ...guestSeen.errors]).toEqual([]);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** Frames the guest's main remote tile has shown so far (the element's own counter). */
const mainTileFrames = (page: Page) =>
  page.locator('[data-testid="remote-video"] video').evaluate((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames);

test('when an agent on instance 1 transfers its call to an agent on instance 2, then that agent is offered it, takes it, and the guest sees and hears the new agent', async ({}, testInfo) => {
  test.setTimeout(300_000);
  const second = await makeAgent('ScaleTransfer', ['Sales']);
  const first = await launchParticipant('agent-door-1', { baseURL: door(1) });
  const guest = await launchParticipant('guest-door-1', { baseURL: door(1), viewport: { width: 1024, height: 768 } });
  const taker = await launchParticipant('taker-door-2', { baseURL: door(2) });
  try {
    const takerSeen = watchErrors(taker.page, 'taker');
    const { callId } = await guestCallsAndAgentAnswers(first, guest);
    await agentSignsIn(taker.page, second);
    await expect(taker.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const takerJid = await consoleUserJid(taker.page);

    // the first agent (instance 1) picks the second one (instance 2); the offer crosses, the second takes it
    await transferAndAccept(first.page, taker.page, takerJid, callId);

    // the acceptance crosses back: the first agent leaves, the guest stays with the new agent
    await expect(first.page.getByTestId('active-call')).toHaveCount(0);
    await expect(taker.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${takerJid}|${callId}`);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    const before = await mainTileFrames(guest.page);
    await expect.poll(() => mainTileFrames(guest.page)).toBeGreaterThan(before + 10);
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(taker.page, 'taker');
    await screenshot(taker.page, testInfo, 'scale-transfer-taker');

    expect(new Set(takerSeen.instances)).toEqual(new Set(['2']));
    expect(takerSeen.errors).toEqual([]);
    const [report] = await queryRows<{ agent: string | null }>('select agent from call_reports where call_id = ?', [callId]);
    expect(report?.agent).toBe(takerJid);
  } finally {
    await closeAll(testInfo, first, guest, taker);
  }
});
