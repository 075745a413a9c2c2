/**
 * Fault journeys, XMPP: ejabberd restarted while a guest waits and during a call. Both sides'
 * XmppSession reconnects by itself (backoff: the guest's capped at 10 s, the console's at 32 s);
 * the guest joins its room again announcing its call, the console joins its rooms again and rebuilds its
 * queue from their presence (docs/protocol.md "XMPP reconnection"). Run in the "fault" project.
 */
import { expect, test } from '@playwright/test';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectReportEnded, queryRows } from '../support/db.ts';
import { decodedFramesDuring, expectMediaFlowing } from '../support/media.ts';
import { roomOccupants, startServer, stopServer } from '../support/stack.ts';
import { chatBothWays, guestCallsAndAgentAnswers, guestCallsAndWaits, launchPair } from './incall-support.ts';

/** Whatever a test broke, ejabberd runs again for the next one. */
test.afterEach(async () => {
  await startServer('ejabberd');
});

async function reportOf(callId: string): Promise<{ room_jid: string; guest_exit_at: number | null; call_answered_at: number | null }> {
  const [row] = await queryRows<{ room_jid: string; guest_exit_at: number | null; call_answered_at: number | null }>(
    'select room_jid, guest_exit_at, call_answered_at from call_reports where call_id = ?',
    [callId],
  );
  if (!row) throw new Error(`no report for ${callId}`);
  return row;
}

/** The bare JIDs ejabberd has in the room now. */
async function bareOccupants(room: string): Promise<string[]> {
  return (await roomOccupants(room)).map((jid) => jid.split('/')[0] ?? jid).sort();
}

/** Stops ejabberd (every XMPP stream drops, the rooms empty) and starts it again; resolves when it answers. */
async function restartEjabberd(): Promise<number> {
  await stopServer('ejabberd');
  await startServer('ejabberd');
  return Date.now();
}

test('when ejabberd is restarted while a guest waits, then within 12 s of its return the guest is back in the agent\u2019s queue, and the call is answered with media both ways', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    // arrange: the agent is online; the guest calls and waits in its queue
    const { item, callId, agentJid } = await guestCallsAndWaits(agent, guest);
    const { room_jid: room } = await reportOf(callId);
    const guestJid = `${callId.split('--')[0]}@`;

    // act: ejabberd stops; the waiting guest is told it is reconnecting (it is in no queue meanwhile)
    await stopServer('ejabberd');
    const notice = guest.page.getByTestId('media-notice');
    await expect(notice).toHaveAttribute('data-notice', 'signallingReconnecting');
    await expect(notice).toHaveText(/Reconnecting/);
    await screenshot(guest.page, testInfo, 'fault-xmpp-guest-reconnecting');
    // ejabberd is back
    await startServer('ejabberd');
    const back = Date.now();

    // assert: within 12 s both are in the guest's room again (as ejabberd itself says), and the agent's
    // queue lists the guest from its new presence
    await expect
      .poll(() => bareOccupants(room), { message: 'the guest and the agent back in the guest\u2019s room', timeout: 12_000, intervals: [250] })
      .toEqual(expect.arrayContaining([agentJid, expect.stringContaining(guestJid)]));
    await expect(item).toHaveCount(1, { timeout: Math.max(1, 12_000 - (Date.now() - back)) });
    await expect(item).toHaveAttribute('data-call-id', callId);
    expect(Date.now() - back, 'ms from ejabberd back to the guest in the queue').toBeLessThan(12_000);
    await expect(notice).toHaveCount(0);
    await screenshot(agent.page, testInfo, 'fault-xmpp-restart-waiting-agent-queue');

    // act: the agent answers
    await item.getByTestId('answer-button').click();

    // assert: the call goes through with media both ways; the guest's presence says InCall again
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${callId}`);
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    // the XMPP drop was not the guest leaving
    expect((await reportOf(callId)).guest_exit_at).toBeNull();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when ejabberd is restarted mid-call, then decoded frames never stop, both are back in the room, chat works again and the call ends cleanly', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    // arrange: a call with media both ways
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const { room_jid: room } = await reportOf(callId);

    // act: ejabberd restarts while both sides' decoded frames are sampled, until both are back in the room
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      await restartEjabberd();
      await expect
        .poll(() => bareOccupants(room), { message: 'the guest and the agent back in the guest\u2019s room', timeout: 45_000, intervals: [250] })
        .toEqual(expect.arrayContaining([agentJid, expect.stringContaining(`${callId.split('--')[0]}@`)]));
      // and a few seconds of the call after it
      await new Promise((r) => setTimeout(r, 3000));
    });

    // assert: the media never stopped, and the call is still on at both ends
    // the sampling covered the fault (each page is read about every 250 ms; about 1 s apart on a loaded machine)
    expect(frames.samples).toBeGreaterThanOrEqual(6);
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-call-id', callId);
    // the agent's header shows the call's time, not "Connecting…"
    await expect(agent.page.getByTestId('agent-call-timer')).toHaveText(/\d+:\d\d/);

    // assert: the signalling is back both ways
    await chatBothWays(guest.page, agent.page, 'after the restart');
    await screenshot(agent.page, testInfo, 'fault-xmpp-restart-midcall-agent');

    // act: the agent ends the call; assert: the guest sees the end and the report has it
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expect(guest.page.locator('[data-screen="abandoned"], [data-screen="rating"]')).toBeVisible();
    await expectReportEnded(callId);
    expect((await reportOf(callId)).guest_exit_at).toBeNull();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
