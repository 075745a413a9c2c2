/**
 * Hold and resume (issue 5, SPEC.md §4 "Holding"): the agent holds, the guest's peer call is Paused,
 * it shows the hold page and announces CallOnHold; on resume the call continues under a new call id,
 * linked to the first one in the database (POST /call-report/hold-call), the guest announces
 * CallResumed and media flows again both ways.
 */
import { expect, test } from '@playwright/test';
import { queryRows } from '../support/db.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing, mediaCounters } from '../support/media.ts';
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
