/**
 * Fault journeys, the Lobby server (apps/server) killed and started again mid-call. The
 * browsers' websockets do not go through it (nginx sends /xmpp-websocket to ejabberd and /janus to the
 * Janus gate), so the call's media and signalling go on; the console's event stream reconnects by itself
 * and the console then asks for the open calls again. No write the server acknowledged is lost. Run in
 * the "fault" project.
 */
import { expect, test } from '@playwright/test';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectReportEnded, queryRows } from '../support/db.ts';
import { decodedFramesDuring } from '../support/media.ts';
import { killServer, startServer } from '../support/stack.ts';
import { chatBothWays, guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

/** Whatever a test broke, the server runs again for the next one. */
test.afterEach(async () => {
  await startServer('server');
});

test('when the Lobby server is killed and restarted mid-call, then decoded frames never stop, both sides\u2019 signalling is back, the call ends cleanly and nothing acknowledged is lost', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    // arrange: a call with media both ways, its answer acknowledged by the server
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const answered = async () =>
      (await queryRows<{ call_answered_at: number | null; agent: string | null }>('select call_answered_at, agent from call_reports where call_id = ?', [callId]))[0];
    await expect.poll(async () => (await answered())?.call_answered_at ?? 0).toBeGreaterThan(0);
    const before = await answered();
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');

    // act: the server dies (SIGKILL) and comes back, while both sides' decoded frames are sampled
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      await killServer('server');
      await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'false');
      await startServer('server');
      // the console's event stream is open again
      await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true', { timeout: 30_000 });
      // and a few seconds of the call after it
      await new Promise((r) => setTimeout(r, 3000));
    });

    // assert: the media never stopped
    // the sampling covered the fault (each page is read about every 250 ms; about 1 s apart on a loaded machine)
    expect(frames.samples).toBeGreaterThanOrEqual(6);
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${callId}`);

    // assert: what the server acknowledged before it died is still there
    expect(await answered()).toEqual(before);

    // assert: the signalling is back both ways
    await chatBothWays(guest.page, agent.page, 'after the server restart');
    await screenshot(agent.page, testInfo, 'fault-server-killed-agent');

    // act: the guest closes its chat (it covers the call's controls) and hangs up; assert: both end, and
    // the restarted server records the end
    await guest.page.getByTestId('chat-toggle-button').click();
    await guest.page.getByTestId('hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expectReportEnded(callId);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
