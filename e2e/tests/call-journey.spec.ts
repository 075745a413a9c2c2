/**
 * The foundation journey, end to end on the real stack: a guest calls, an agent sees the
 * guest appear live with the exact presence it sent, answers, both see and hear each other (decoded
 * frames and received audio packets on each side), the agent hangs up, both go back to idle, and the
 * report row carries the timestamps.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';

interface ReportRow {
  company_id: number;
  guest_username: string;
  source: string;
  status: string;
  agent: string | null;
  call_initiated_at: number | null;
  call_answered_at: number | null;
  call_ended_at: number | null;
}

test('when a guest calls and an agent answers, then both see and hear each other and the call is reported', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 390, height: 844 } });
  try {
    // arrange: the agent is signed in with an empty queue
    await agentSignsIn(agent.page);
    await expect(agent.page.getByTestId('queue-empty')).toBeVisible();
    const agentJid = await consoleUserJid(agent.page);

    // act: the guest opens the page and starts a video call
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await screenshot(guest.page, testInfo, 'journey-guest-selection');
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(guest.page.locator('[data-screen="waiting"]')).toBeVisible();

    // assert: the guest appears in the agent's queue, live, with exactly what it announced
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    const callId = (await item.getAttribute('data-call-id')) ?? '';
    const [guestUsername] = callId.split('--');
    expect(callId).toMatch(/^g[0-9a-f]{16}--[a-z0-9]+$/);
    await expect(item).toHaveAttribute('data-presence', `OpenCall|roundRobin|${callId}`);
    await expect(item).toHaveAttribute('data-user-type', 'guest');
    await expect(item).toHaveAttribute('data-appointment-id', '');
    // a guest who gave no name is "Guest" and the end of its username, not the raw username
    await expect(item).toContainText(`Guest ${guestUsername!.slice(-4).toUpperCase()}`);
    await expect(item).not.toContainText(guestUsername!);
    await screenshot(agent.page, testInfo, 'journey-agent-queue');
    await screenshot(guest.page, testInfo, 'journey-guest-waiting');

    // act: the agent answers
    await item.getByTestId('answer-button').click();

    // assert: the guest is in the call and announced it to that agent
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute(
      'data-guest-presence',
      `InCall|${agentJid}|${callId}`,
    );
    await expect(item).toHaveCount(0);

    // assert: the guest sees the agent by its name, never its address
    await expect(guest.page.getByTestId('remote-video')).toHaveAttribute('aria-label', 'Demo Agent');
    expect(await guest.page.locator('[data-screen="ongoing"]').innerText()).not.toContain('@');

    // assert: media flows both ways
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    await screenshot(guest.page, testInfo, 'journey-guest-ongoing');
    await screenshot(agent.page, testInfo, 'journey-agent-call');

    const [report] = await queryRows<ReportRow>('select * from call_reports where call_id = ?', [callId]);
    expect(report).toMatchObject({
      company_id: 18,
      guest_username: guestUsername,
      source: 'site',
      status: 'ok',
      agent: agentJid,
    });
    expect(report?.call_initiated_at).toBeGreaterThan(0);
    expect(report?.call_answered_at).toBeGreaterThanOrEqual(report?.call_initiated_at ?? Infinity);

    // act: the agent hangs up
    await agent.page.getByTestId('agent-hangup-button').click();

    // assert: both sides are back to idle and the report is closed
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expect(guest.page.locator('[data-screen="abandoned"], [data-screen="rating"]')).toBeVisible();
    await screenshot(guest.page, testInfo, 'journey-guest-ended');
    await expect
      .poll(
        async () =>
          (await queryRows<ReportRow>('select * from call_reports where call_id = ?', [callId]))[0]
            ?.call_ended_at ?? 0,
      )
      .toBeGreaterThanOrEqual(report?.call_answered_at ?? Infinity);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
