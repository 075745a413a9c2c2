/**
 * Hold and resume (docs/protocol.md "Hold and resume"): the agent holds, the guest's peer call is Paused,
 * it shows the hold page and announces CallOnHold; on resume the call continues under a new call id,
 * linked to the first one in the database (POST /call-report/hold-call), the guest announces
 * CallResumed and media flows again both ways.
 */
import { expect, test, type Locator } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { DEMO_ADMIN } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing, mediaCounters } from '../support/media.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { PHONE } from '../support/guest/screens.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

interface ReportRow {
  call_id: string;
  origin_call_id: string | null;
  previous_call_id: string | null;
  guest_username: string;
  status: string;
  agent: string | null;
}

test('when the agent holds and resumes, then the guest sees the hold page and the call continues under a new linked call id', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const [guestUsername] = callId.split('--');
    const call = agent.page.getByTestId('active-call');

    // act: the agent puts the call on hold
    await agent.page.getByTestId('agent-hold-button').click();

    // assert: the guest shows the hold page with the company's texts and announced CallOnHold
    await expect(guest.page.getByTestId('hold-page')).toBeVisible();
    await expect(guest.page.getByTestId('hold-text')).toHaveText("You're on hold. Please stay on the line.");
    await expect(guest.page.getByTestId('hold-kind-text')).toHaveText("Your video is paused while you're on hold.");
    await expect(call).toHaveAttribute('data-guest-presence', `CallOnHold|${agentJid}|${callId}`);
    await expect(call).toHaveAttribute('data-held', 'true');
    // no media any more on either side
    await expect.poll(async () => (await mediaCounters(guest.page)).connections).toBe(0);
    await expect.poll(async () => (await mediaCounters(agent.page)).connections).toBe(0);
    await screenshot(guest.page, testInfo, 'incall-hold-guest');

    // act: the agent resumes
    await agent.page.getByTestId('agent-hold-button').click();

    // assert: a new call id, announced by the guest, media both ways again, the hold page gone
    await expect(call).not.toHaveAttribute('data-call-id', callId);
    const newCallId = (await call.getAttribute('data-call-id')) ?? '';
    expect(newCallId).toMatch(new RegExp(`^${guestUsername}--[a-z0-9]+$`));
    await expect(call).toHaveAttribute('data-held', 'false');
    await expect(guest.page.getByTestId('hold-page')).toHaveCount(0);
    await expectMediaFlowing(guest.page, 'guest after resume');
    await expectMediaFlowing(agent.page, 'agent after resume');
    await expect(call).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${newCallId}`);

    // assert: the database links the new call to the held one
    const [row] = await queryRows<ReportRow>('select * from call_reports where call_id = ?', [newCallId]);
    expect(row).toMatchObject({
      call_id: newCallId,
      origin_call_id: callId,
      previous_call_id: callId,
      guest_username: guestUsername,
      status: 'ok',
    });
    await screenshot(guest.page, testInfo, 'incall-hold-resumed-guest');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** Seconds shown by a call timer ("m:ss" or "h:mm:ss"); NaN when it shows words (e.g. "Connecting…"). */
async function timerSeconds(timer: Locator): Promise<number> {
  const text = ((await timer.locator('time').textContent()) ?? '').trim();
  if (!/^\d+(:\d\d){1,2}$/.test(text)) return Number.NaN;
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

test('when the agent holds and resumes, then both timers say on hold and run on as one duration, and Reports list the call once', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    const agentTimer = agent.page.getByTestId('agent-call-timer');
    const guestTimer = guest.page.getByTestId('call-timer');
    await expect.poll(() => timerSeconds(agentTimer)).toBeGreaterThanOrEqual(2);
    const beforeHold = await timerSeconds(agentTimer);

    // act: the agent holds
    await agent.page.getByTestId('agent-hold-button').click();

    // assert: on hold is shown as on hold on both sides, never as connecting; the guest's time runs on
    await expect(guest.page.getByTestId('hold-page')).toBeVisible();
    await expect(agent.page.getByTestId('remote-on-hold')).toHaveText('On hold');
    await expect(agent.page.getByTestId('active-call')).not.toContainText('Connecting');
    await expect(agentTimer).toHaveAttribute('data-held', 'true');
    await expect(agentTimer).toContainText('On hold');
    await expect(guestTimer).toHaveAttribute('data-on-hold', 'true');
    await expect(guestTimer).toBeVisible(); // above the hold page
    await expect(guestTimer).toContainText('On hold');
    await expect(guestTimer).not.toContainText('Connecting');
    await expect.poll(() => timerSeconds(guestTimer)).toBeGreaterThanOrEqual(beforeHold);
    // the hold lasts several seconds, so that a timer restarted by the resume would show clearly less
    await expect.poll(() => timerSeconds(agentTimer), { timeout: 15_000 }).toBeGreaterThanOrEqual(beforeHold + 6);
    await screenshot(agent.page, testInfo, 'incall-hold-timer-agent');
    await screenshot(guest.page, testInfo, 'incall-hold-timer-guest');

    // act: the agent resumes
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(guest.page.getByTestId('hold-page')).toHaveCount(0);
    await expectMediaFlowing(agent.page, 'agent after resume');

    // assert: one running duration across the hold on both sides: neither timer restarted, and they agree
    await expect(agentTimer).toHaveAttribute('data-held', 'false');
    await expect(guestTimer).toHaveAttribute('data-on-hold', 'false');
    const agentAfter = await timerSeconds(agentTimer);
    const guestAfter = await timerSeconds(guestTimer);
    expect(agentAfter).toBeGreaterThanOrEqual(beforeHold + 6);
    expect(guestAfter).toBeGreaterThanOrEqual(beforeHold + 6);
    expect(Math.abs(agentAfter - guestAfter)).toBeLessThanOrEqual(3);
    await screenshot(agent.page, testInfo, 'incall-hold-timer-resumed-agent');
    const resumedCallId = (await agent.page.getByTestId('active-call').getAttribute('data-call-id')) ?? '';
    expect(resumedCallId).not.toBe(callId);

    // act: the agent hangs up; an admin opens Reports
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await agent.page.getByTestId('logout-button').click();
    await agentSignsIn(agent.page, DEMO_ADMIN);
    await agent.page.getByTestId('nav-reports').click();

    // assert: "Latest calls" lists the held and resumed conversation once
    const rows = agent.page.getByTestId('recent-call');
    await expect(rows.first()).toBeVisible();
    const ours = agent.page.locator(`[data-testid="recent-call"][data-call-id="${callId}"], [data-testid="recent-call"][data-call-id="${resumedCallId}"]`);
    await expect(ours).toHaveCount(1);
    await screenshot(agent.page, testInfo, 'incall-hold-reports-once');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

for (const language of ['en', 'ar'] as const) {
  test(`when the agent holds a call with a guest on a phone (${language}), then the on-hold timer pill stays on one line and nothing says connecting`, async ({}, testInfo) => {
    if (language === 'ar') await arrangeCompanySettings({ language: 'arabic' });
    const agent = await launchParticipant('agent');
    const guest = await launchParticipant(`guest-${language}-phone`, { viewport: PHONE });
    try {
      await guestCallsAndAgentAnswers(agent, guest);
      await expect(guest.page.locator('html')).toHaveAttribute('lang', language);

      // act: the agent holds
      await agent.page.getByTestId('agent-hold-button').click();

      // assert: "On hold · 0:0x" is one line: no taller than the pill's own single-line height (32 px)
      const timer = guest.page.getByTestId('call-timer');
      await expect(timer).toHaveAttribute('data-on-hold', 'true');
      await expect(timer).toContainText(language === 'ar' ? 'في الانتظار' : 'On hold');
      const box = await timer.boundingBox();
      expect(box?.height, 'the on-hold pill wrapped').toBeLessThanOrEqual(33);
      // and it is inside the screen
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);

      // assert: what lies under the hold page (the agent's tile) says on hold too, never connecting
      const call = guest.page.locator('[data-screen="ongoing"]');
      await expect(guest.page.getByTestId('remote-on-hold')).toHaveText(language === 'ar' ? 'في الانتظار' : 'On hold');
      expect(await call.ariaSnapshot()).not.toMatch(language === 'ar' ? /جارٍ الاتصال/ : /Connecting/);
      await screenshot(guest.page, testInfo, `incall-hold-phone-${language}`);
    } finally {
      await closeAll(testInfo, agent, guest);
      if (language === 'ar') await restoreAll();
    }
  });
}
