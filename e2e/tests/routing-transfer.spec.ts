/**
 * Transfer: the agent in a call hands it to another available agent; that agent takes it and
 * joins the call, the first agent leaves, and the guest, who never redials, now sees and hears the new
 * agent. The report keeps the transfer.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from './incall-support.ts';
import { makeAgent, transferAndAccept } from './routing-support.ts';

/** Frames the guest's main remote tile has shown so far (the element's own counter). */
const mainTileFrames = (page: Page) =>
  page.locator('[data-testid="remote-video"] video').evaluate((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames);

test('when an agent transfers its call to another agent, then the guest stays in the call and ends up seeing and hearing the new agent', async ({}, testInfo) => {
  // three browsers with live media, two of them publishing to the third in turn: more than the default budget
  test.setTimeout(300_000);
  const second = await makeAgent('Transfer', ['Sales']);
  const first = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  const taker = await launchParticipant('taker');
  try {
    const { callId, agentJid } = await guestCallsAndAgentAnswers(first, guest);
    await agentSignsIn(taker.page, second);
    await expect(taker.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const takerJid = await consoleUserJid(taker.page);

    // the first agent picks the second one, who is offered it and takes it
    await transferAndAccept(first.page, taker.page, takerJid, callId, () => screenshot(taker.page, testInfo, 'routing-transfer-incoming'));

    // the first agent leaves; the guest's presence names the new agent, in the same call
    await expect(first.page.getByTestId('active-call')).toHaveCount(0);
    await expect(taker.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${takerJid}|${callId}`);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    // the guest sees the new agent by its name (the taker's console account), not its address
    const takerName = await taker.page.evaluate(async () => {
      const body = (await (await fetch('/api/console/me')).json()) as { data: { user: { name: string } } };
      return body.data.user.name;
    });
    await expect(guest.page.getByTestId('remote-video')).toHaveAttribute('aria-label', takerName);
    await expect(guest.page.getByTestId('remote-video-other')).toHaveCount(0);
    expect(takerJid).not.toBe(agentJid);

    // media: the guest decodes the new agent's video in its main tile, and the new agent the guest's
    const before = await mainTileFrames(guest.page);
    await expect.poll(() => mainTileFrames(guest.page)).toBeGreaterThan(before + 10);
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(taker.page, 'taker');
    await screenshot(guest.page, testInfo, 'routing-transfer-guest');

    const rows = await queryRows<{ from_user_id: number; to_user_id: number; accepted_by_user_id: number; accepted_at: number | null }>(
      'select from_user_id, to_user_id, accepted_by_user_id, accepted_at from call_transfers where call_id = ?',
      [callId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.to_user_id).toBe(second.id);
    expect(rows[0]?.accepted_by_user_id).toBe(second.id);
    expect(rows[0]?.accepted_at).not.toBeNull();
    const [report] = await queryRows<{ agent: string | null }>('select agent from call_reports where call_id = ?', [callId]);
    expect(report?.agent).toBe(takerJid);
  } finally {
    await closeAll(testInfo, first, guest, taker);
  }
});
