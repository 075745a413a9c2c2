/**
 * Fault journeys: the real stack broken while a call starts or runs: Janus down when the
 * guest calls, Janus crashing mid-call (restarted: the call goes on; staying down: it ends), the Janus gate restarted mid-call, a guest's tab closed mid-call.
 * They stop and start the stack's own servers (e2e/support/stack.ts), so they run as their own
 * Playwright project ("fault"), one after the other, never among the other journeys.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import type { LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn } from '../support/journey.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectReportEnded, queryRows } from '../support/db.ts';
import { decodedFramesDuring, expectMediaFlowing, framesBackAt } from '../support/media.ts';
import { expectRecordingCoversCall } from '../support/recordingMix.ts';
import { janusRoomExists, killServer, startServer, stopServer } from '../support/stack.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

/** Whatever a test broke, Janus and the gate run again for the next one. */
test.afterEach(async () => {
  await startServer('janus');
  await startServer('gate');
});

async function reportOf(callId: string): Promise<{ success: number | null; call_ended_at: number | null } | undefined> {
  return (await queryRows<{ success: number | null; call_ended_at: number | null }>('select success, call_ended_at from call_reports where call_id = ?', [callId]))[0];
}

/** Runs a journey with a fresh agent and guest browser, closed (with their logs) whatever happens. */
async function withPair(testInfo: TestInfo, journey: (pair: { agent: LaunchedBrowser; guest: LaunchedBrowser }) => Promise<void>): Promise<void> {
  const pair = await launchPair();
  try {
    await journey(pair);
  } finally {
    await closeAll(testInfo, pair.agent, pair.guest);
  }
}

async function guestCalls(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
}

test('when Janus is down as the guest presses Call, then the guest is told the video service is not answering, and the call goes through once Janus is back', async ({}, testInfo) => {
  await withPair(testInfo, async ({ agent, guest }) => {
    // arrange: the agent is ready; Janus is stopped
    await agentSignsIn(agent.page);
    await stopServer('janus');

    // act: the guest calls
    await guestCalls(guest.page);

    // assert: a message the guest understands, not a silent wait
    const notice = guest.page.getByTestId('media-notice');
    await expect(notice).toHaveAttribute('data-notice', 'waitingForServer');
    await expect(notice).toContainText('video service');
    await screenshot(guest.page, testInfo, 'fault-janus-down-at-call');

    // act: Janus comes back
    await startServer('janus');

    // assert: the call reaches the agent, is answered, and media flows both ways
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1, { timeout: 45_000 });
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(notice).toHaveCount(0);
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
  });
});

test('when Janus is killed mid-call and restarted 5 s later, then both sides are told, the call continues in the same call with frames back on both sides, and its recording covers both parts', async ({}, testInfo) => {
  // a call, Janus's restart, the rejoin, then the recording's mix on a machine the stack shares
  test.setTimeout(300_000);
  await withPair(testInfo, async ({ agent, guest }) => {
    // arrange: a recorded call with media both ways (the demo company records calls; the guest acknowledged)
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const [guestUsername] = callId.split('--');
    const guestNotice = guest.page.getByTestId('media-notice');
    const agentNotice = agent.page.getByTestId('agent-media-notice');
    await guest.page.waitForTimeout(3000);

    // act: Janus crashes
    await killServer('janus');

    // assert: both sides are told the video is being reconnected and is frozen meanwhile (nothing flows)
    await expect(guestNotice).toHaveAttribute('data-notice', 'serverUnreachable');
    await expect(agentNotice).toHaveAttribute('data-notice', 'serverUnreachable');
    await screenshot(agent.page, testInfo, 'fault-janus-killed-agent-reconnecting');

    // act: Janus is back 5 s later, without the call's session nor its room (it crashed)
    await new Promise((r) => setTimeout(r, 5000));
    const startedAt = Date.now();
    await startServer('janus');
    const answeringAt = Date.now();

    // assert: both sides decode frames again, on new sessions in the same call
    const [guestBack, agentBack] = await Promise.all([framesBackAt(guest.page, 'guest', 30_000), framesBackAt(agent.page, 'agent', 30_000)]);
    const times = {
      janusStartMs: answeringAt - startedAt,
      guestFramesBackMs: guestBack - startedAt,
      agentFramesBackMs: agentBack - startedAt,
      bothBackAfterJanusAnswersMs: Math.max(guestBack, agentBack) - answeringAt,
    };
    console.log(`Janus restart → frames back: ${JSON.stringify(times)}`);
    await testInfo.attach('janus-restart-to-frames', { body: JSON.stringify(times, null, 2), contentType: 'application/json' });
    expect(Math.max(guestBack, agentBack) - startedAt, 'from Janus started to frames back at both sides (ms)').toBeLessThan(30_000);

    // assert: the notices are gone, media flows both ways, and it is the same call
    await expect(guestNotice).toHaveCount(0, { timeout: 30_000 });
    await expect(agentNotice).toHaveCount(0, { timeout: 30_000 });
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${callId}`);
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    await screenshot(guest.page, testInfo, 'fault-janus-restarted-guest-continues');
    await screenshot(agent.page, testInfo, 'fault-janus-restarted-agent-continues');
    expect(await janusRoomExists(callId), 'the call room, made again in the restarted Janus').toBe(true);

    // act: they talk on a little, then the agent hangs up
    await guest.page.waitForTimeout(4000);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();

    // assert: one report for the call, ended and not failed; no call-bug
    await expectReportEnded(callId);
    expect((await reportOf(callId))?.success).not.toBe(0);
    const reports = await queryRows<{ call_id: string }>('select call_id from call_reports where call_id like ?', [`${guestUsername}--%`]);
    expect(reports.map((r) => r.call_id)).toEqual([callId]);
    expect(await queryRows('select id from call_bugs where call_id = ?', [callId])).toEqual([]);

    // assert: the recording has both parts of each publisher (before and after the restart), and its mix
    // lasts the call, with sound after the restart
    await expectRecordingCoversCall(testInfo, { callId, agentJid });
  });
});

test('when the Janus gate is restarted mid-call, then decoded frames never stop, and the sessions are claimed back: a screen shared afterwards reaches the agent', async ({}, testInfo) => {
  await withPair(testInfo, async ({ agent, guest }) => {
    // arrange: a call with media both ways
    await guestCallsAndAgentAnswers(agent, guest);

    // act: restart the gate (every websocket to Janus drops) while sampling both sides' decoded frames
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      await stopServer('gate');
      await expect(guest.page.getByTestId('media-notice')).toHaveAttribute('data-notice', 'reconnecting');
      await startServer('gate');
      await new Promise((r) => setTimeout(r, 3000));
    });

    // assert: frames kept coming on both sides (Janus kept the sessions: reclaim_session_timeout)
    expect(frames.samples).toBeGreaterThan(8);
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);

    // assert: the signalling is back on both sides: the notices are gone, and a new publisher (the
    // guest's screen) is negotiated by the guest's session and subscribed to by the agent's
    await expect(guest.page.getByTestId('media-notice')).toHaveCount(0, { timeout: 30_000 });
    await expect(agent.page.getByTestId('agent-media-notice')).toHaveCount(0);
    await guest.page.getByTestId('screen-share-button').click();
    await expect(agent.page.getByTestId('remote-screen')).toHaveAttribute('data-has-video', 'true', { timeout: 30_000 });
    await screenshot(agent.page, testInfo, 'fault-gate-restart-agent-sees-screen');
  });
});

test('when the guest closes its tab mid-call, then the report has its end time and the Janus room is gone', async ({}, testInfo) => {
  await withPair(testInfo, async ({ agent, guest }) => {
    // arrange: a call with media both ways, in its room
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    expect(await janusRoomExists(callId)).toBe(true);

    // act: the guest closes the tab
    await guest.page.close({ runBeforeUnload: true });

    // assert: the report is ended, the room destroyed, and the agent is free again
    await expectReportEnded(callId);
    await expect.poll(() => janusRoomExists(callId), { message: 'the call room is destroyed' }).toBe(false);
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await screenshot(agent.page, testInfo, 'fault-tab-closed-agent-idle');
  });
});

test('when Janus stays down mid-call, then each moment reads true on both sides: the video is being reconnected and frozen, the line not good, and the end says the service stopped answering (not restarted)', async ({}, testInfo) => {
  test.setTimeout(180_000);
  await withPair(testInfo, async ({ agent, guest }) => {
    // arrange: a call with media both ways
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    const guestNotice = guest.page.getByTestId('media-notice');
    const agentNotice = agent.page.getByTestId('agent-media-notice');

    // act: Janus crashes and stays down
    await killServer('janus');

    // assert: both are told the video is being reconnected and the picture is frozen (no "call goes on"),
    // and neither indicator says the line is good while nothing flows
    await expect(guestNotice).toHaveAttribute('data-notice', 'serverUnreachable', { timeout: 15_000 });
    await expect(guestNotice).toContainText('Reconnecting the video');
    await expect(guestNotice).toContainText('frozen');
    await expect(guestNotice).not.toContainText('goes on');
    await expect(agentNotice).toHaveAttribute('data-notice', 'serverUnreachable');
    await expect(agentNotice).toContainText('frozen');
    await expect(agentNotice).not.toContainText('goes on');
    await expect(agent.page.getByTestId('network-quality')).toHaveAttribute('data-quality', 'poor');
    await expect(guest.page.getByTestId('network-quality')).toHaveAttribute('data-quality', 'poor');
    await expect(agent.page.getByTestId('network-quality')).not.toContainText('good');
    await screenshot(guest.page, testInfo, 'fault-janus-down-guest-frozen');
    await screenshot(agent.page, testInfo, 'fault-janus-down-agent-frozen');

    // assert: once the claims run out with Janus still down, the end says it stopped answering, not "restarted"
    const ended = guest.page.locator('[data-end-reason="failed"]');
    await expect(ended).toHaveAttribute('data-failure', 'mediaServerDown', { timeout: 90_000 });
    await expect(ended).toContainText('could not be reached');
    await expect(ended).not.toContainText('restarted');
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expect(agentNotice).toContainText('stopped answering');
    await expect(agentNotice).not.toContainText('restarted');
    await screenshot(agent.page, testInfo, 'fault-janus-down-agent-ended');
    await expectReportEnded(callId);
  });
});
