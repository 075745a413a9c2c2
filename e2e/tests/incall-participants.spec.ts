/**
 * More participants: a second agent (a supervisor) joins a running call; the guest decodes
 * both agents' video and receives both agents' audio, and the first agent sees the supervisor too.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { withMediaReport } from '../support/media.ts';
import { guestCallsAndAgentAnswers, launchPair, supervisorSignsIn } from './incall-support.ts';

/** Per inbound stream: frames decoded (video) or packets received (audio), keyed by track. */
async function inbound(page: Page): Promise<{ video: Record<string, number>; audio: Record<string, number> }> {
  return page.evaluate(async () => {
    const out = { video: {} as Record<string, number>, audio: {} as Record<string, number> };
    const pcs = (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? [];
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type !== 'inbound-rtp') return;
        const key = String(s.trackIdentifier ?? s.id);
        if (s.kind === 'video') out.video[key] = Number(s.framesDecoded ?? 0);
        if (s.kind === 'audio') out.audio[key] = Number(s.packetsReceived ?? 0);
      });
    }
    return out;
  });
}

/** How many inbound video / audio streams grew over `ms`. */
async function growing(page: Page, ms = 2000): Promise<{ video: number; audio: number }> {
  const before = await inbound(page);
  await page.waitForTimeout(ms);
  const after = await inbound(page);
  const count = (a: Record<string, number>, b: Record<string, number>) =>
    Object.keys(b).filter((k) => (b[k] ?? 0) > (a[k] ?? 0)).length;
  return { video: count(before.video, after.video), audio: count(before.audio, after.audio) };
}

test('when a supervisor joins a running call, then the guest sees and hears both agents', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  const supervisor = await launchParticipant('supervisor');
  try {
    // arrange: a supervisor of the Sales assignment, created by the company's admin, signed in
    await supervisorSignsIn(supervisor.page);

    // arrange: the guest calls and the agent answers
    await guestCallsAndAgentAnswers(agent, guest);

    // act: the supervisor joins the running call
    const running = supervisor.page.getByTestId('running-call');
    await expect(running).toHaveCount(1);
    await running.getByTestId('join-call-button').click();
    await expect(supervisor.page.getByTestId('active-call')).toBeVisible();

    // assert: the guest decodes two agents' video and receives two agents' audio
    const everyone: Array<[Page, string]> = [[guest.page, 'guest'], [agent.page, 'agent'], [supervisor.page, 'supervisor']];
    await withMediaReport(everyone, async () => {
      await expect
        .poll(async () => (await growing(guest.page, 1500)).video, { message: 'guest: video streams decoding', timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      const guestGrowing = await growing(guest.page);
      expect(guestGrowing.video, 'guest: both agents are decoded').toBeGreaterThanOrEqual(2);
      expect(guestGrowing.audio, 'guest: both agents are heard').toBeGreaterThanOrEqual(2);
    });
    await expect(guest.page.getByTestId('remote-video-other')).toHaveCount(1);

    // assert: the first agent and the supervisor each decode the two others
    await expect.poll(async () => (await growing(agent.page, 1500)).video, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await growing(supervisor.page, 1500)).video, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await screenshot(guest.page, testInfo, 'incall-participants-guest');

    // act: the supervisor leaves; the call goes on between the guest and the agent
    await supervisor.page.getByTestId('agent-hangup-button').click();
    await expect(supervisor.page.getByTestId('call-idle')).toBeVisible();
    await expect(guest.page.getByTestId('remote-video-other')).toHaveCount(0);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    // the tile goes on Janus's "unpublished" event; frames already in the guest's jitter buffer may still
    // decode for a moment after it, so wait for the departed stream to drain, then hold it for 2 s
    await expect
      .poll(async () => (await growing(guest.page, 1000)).video, { message: 'guest: one video stream left', timeout: 10_000 })
      .toBe(1);
    expect((await growing(guest.page)).video, 'guest: only the agent is still decoded').toBe(1);
  } finally {
    await closeAll(testInfo, agent, guest, supervisor);
  }
});
