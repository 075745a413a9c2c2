/**
 * The p2p call method (docs/protocol.md "p2p"): with the company's callMethod p2p, the guest
 * and the agent exchange their media directly over a Jingle session (XMPP), Janus holds nothing for the
 * call, the same call works through the TURN relay with the credentials ejabberd hands out (XEP-0215),
 * and the in-call features work as with the media server. A stranger's Jingle session is refused.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { addReport, registerGuest, XMPP_WS_URL } from '../support/api.ts';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { cameraId, chooseOther, sending, sendingCameraId } from '../support/devices.ts';
import { queryRows } from '../support/db.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing, mediaCounters } from '../support/media.ts';
import { janusSessions, newJanusSessions, RELAY_ONLY_INIT_SCRIPT, selectedPairs, setCompany, useP2P } from '../support/p2p.ts';
import { RawXmpp } from '../support/rawXmpp.ts';
import { janusRoomExists } from '../support/stack.ts';
import { expectTileDecoding, framesOfTile, trackOfTile } from '../support/tiles.ts';
import { guestCallsAndAgentAnswers, launchPair, sendChat, supervisorSignsIn, type AnsweredCall } from './incall-support.ts';
import { makeAgent } from './routing-support.ts';

test.beforeAll(() => useP2P(true));
test.afterAll(() => useP2P(false));
test.afterEach(() => restoreAll());

interface ReportRow {
  agent: string | null;
  status: string;
  call_answered_at: number | null;
  call_ended_at: number | null;
}

/** The agent on `agentPage` hangs up: the guest gets the rating screen, the report names `agentJid` and is closed. */
async function hangUpToRating(agentPage: Page, guestPage: Page, callId: string, agentJid: string): Promise<void> {
  await agentPage.getByTestId('agent-hangup-button').click();
  await expect(agentPage.getByTestId('call-idle')).toBeVisible();
  await expect(guestPage.locator('[data-screen="rating"]')).toBeVisible();
  await expect(guestPage.getByTestId('rating-option').first()).toBeVisible();
  await expect
    .poll(async () => (await queryRows<ReportRow>('select * from call_reports where call_id = ?', [callId]))[0]?.call_ended_at ?? 0, {
      message: 'the report is closed',
    })
    .toBeGreaterThan(0);
  const [report] = await queryRows<ReportRow>('select * from call_reports where call_id = ?', [callId]);
  expect(report).toMatchObject({ agent: agentJid, status: 'ok' });
  expect(report?.call_answered_at).toBeGreaterThan(0);
  expect(report?.call_ended_at).toBeGreaterThanOrEqual(report?.call_answered_at ?? Infinity);
}

/** A call the agent answered (media proven both ways); `body` runs in it, both browsers closed after. */
async function inAnsweredCall(
  testInfo: TestInfo,
  body: (call: AnsweredCall) => Promise<void>,
  guestArgs: string[] = [],
): Promise<void> {
  const { agent, guest } = guestArgs.length
    ? {
        agent: await launchParticipant('agent'),
        guest: await launchParticipant('guest', { viewport: { width: 1024, height: 768 }, extraArgs: guestArgs }),
      }
    : await launchPair();
  try {
    await body(await guestCallsAndAgentAnswers(agent, guest));
  } finally {
    await closeAll(testInfo, agent, guest);
  }
}

test('when the company uses p2p, then guest and agent exchange media directly while Janus holds no session for the call, and the guest rates it once the agent hangs up', async ({}, testInfo) => {
  await arrangeCompanySettings({ showRatingPage: true });
  // Janus keeps a closed browser's session for its reclaim time (30 s): an earlier journey's may linger
  const earlier = await janusSessions();
  // act: the usual call (guestCallsAndAgentAnswers proves decoded video and audio on both sides)
  await inAnsweredCall(testInfo, async ({ agent, guest, callId, agentJid }) => {
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');

    // assert: no Janus room and no Janus session of this call; one peer connection per side, to each other
    expect(await janusRoomExists(callId)).toBe(false);
    expect(await newJanusSessions(earlier)).toEqual([]);
    for (const page of [guest.page, agent.page]) {
      const pairs = await selectedPairs(page);
      expect(pairs).toHaveLength(1);
      // (the pair's candidates may be relayed by coturn on this loopback-only machine, where Chromium
      // offers no loopback host candidate: the next test forces the relay and proves it)
      // the ICE servers are coturn's from XEP-0215, never StanzaJS's public default
      expect(pairs[0]!.iceServers).toMatch(/turn:/);
      expect(pairs[0]!.iceServers).not.toMatch(/google/);
    }
    await screenshot(guest.page, testInfo, 'incall-p2p-guest');

    // act: the agent hangs up; assert: the guest's rating screen, the report with its agent and times
    await hangUpToRating(agent.page, guest.page, callId, agentJid);
    await screenshot(guest.page, testInfo, 'incall-p2p-guest-rating');
  });
});

test('when a p2p call is forced through the TURN relay, then media flows both ways through coturn with the credentials from XEP-0215', async ({}, testInfo) => {
  const agent = await launchParticipant('agent', { initScript: RELAY_ONLY_INIT_SCRIPT });
  const guest = await launchParticipant('guest', { initScript: RELAY_ONLY_INIT_SCRIPT, viewport: { width: 1024, height: 768 } });
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    for (const page of [guest.page, agent.page]) {
      const pairs = await selectedPairs(page);
      expect(pairs).toHaveLength(1);
      expect(pairs[0]).toMatchObject({ local: 'relay', remote: 'relay' });
    }
    await expectMediaFlowing(guest.page, 'guest through the relay');
    await expectMediaFlowing(agent.page, 'agent through the relay');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when in a p2p call, then chat, mute and the guest\'s device change work as with the media server', async ({}, testInfo) => {
  test.slow(); // chat, mute and three device changes, each followed by a media check, on a shared machine
  await inAnsweredCall(testInfo, async ({ agent, guest }) => {
    const call = agent.page.getByTestId('active-call');

    // chat (XMPP, unchanged by the method)
    await sendChat(guest.page, '', 'Hello over p2p');
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    await expect(agent.page.getByTestId('chat-message').last()).toHaveText(/Hello over p2p/);

    // mute: the guest's microphone off its sender, the agent shows it and receives no more audio
    await guest.page.getByTestId('mute-audio-button').click();
    await expect(call).toHaveAttribute('data-guest-audio-muted', 'true');
    await guest.page.waitForTimeout(500);
    const mutedFrom = (await mediaCounters(agent.page)).audioPacketsReceived;
    await agent.page.waitForTimeout(1500);
    expect((await mediaCounters(agent.page)).audioPacketsReceived - mutedFrom).toBe(0);
    await guest.page.getByTestId('mute-audio-button').click();
    await expect(call).toHaveAttribute('data-guest-audio-muted', 'false');
    await expectMediaFlowing(agent.page, 'agent after the guest unmuted');

    // device change: the guest picks another microphone, then another camera, from its device panel;
    // the new tracks go on the same Jingle session's senders (no new peer connection)
    const connections = (await mediaCounters(guest.page)).connections;
    const microphone = await sending(guest.page, 'audio');
    await guest.page.getByTestId('devices-button').click();
    await expect(guest.page.getByTestId('device-panel')).toBeVisible();
    // the chat, still open from above, gives its place to the settings (it docked over them before)
    await expect(guest.page.getByTestId('chat-panel')).toHaveCount(0);
    await chooseOther(guest.page, 'microphone-select');
    await expect.poll(() => sending(guest.page, 'audio')).not.toBe(microphone);
    await expectMediaFlowing(agent.page, 'agent after the microphone change');

    // the depth camera first (fake_device_1: the encoder never sends its frames): refused, the previous
    // camera is sent again on the same session, as with the media server (incall-devices)
    const first = await cameraId(guest.page, 'fake_device_0');
    const depth = await cameraId(guest.page, 'fake_device_1');
    const other = await cameraId(guest.page, 'fake_device_2');
    expect(await sendingCameraId(guest.page)).toBe(first);
    await guest.page.getByTestId('camera-select').selectOption(depth);
    await expect(guest.page.getByTestId('device-panel').getByRole('alert')).toHaveText(/could not be used/);
    await expect.poll(() => sendingCameraId(guest.page)).toBe(first);
    await expect(guest.page.getByTestId('camera-select')).toHaveValue(first);
    await expectMediaFlowing(agent.page, 'agent after the refused camera');
    await screenshot(guest.page, testInfo, 'incall-p2p-camera-refused-guest');

    // then a camera that can be sent (fake_device_2, MJPEG)
    await guest.page.getByTestId('camera-select').selectOption(other);
    await expect.poll(() => sendingCameraId(guest.page)).toBe(other);
    const encoded = (await mediaCounters(guest.page)).videoFramesEncoded;
    await expectMediaFlowing(agent.page, 'agent after the camera change');
    expect((await mediaCounters(guest.page)).videoFramesEncoded, 'guest: frames of the new camera encoded').toBeGreaterThan(encoded);
    expect((await mediaCounters(guest.page)).connections).toBe(connections);
    await expect(guest.page.getByTestId('device-panel').getByRole('alert')).toHaveCount(0);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await screenshot(guest.page, testInfo, 'incall-p2p-device-change-guest');
  }, ['--use-fake-device-for-media-stream=device-count=3']);
});

test('when in a p2p call, then screen share works both ways', async ({}, testInfo) => {
  await inAnsweredCall(testInfo, async ({ agent, guest }) => {

    // screen share: the guest's screen reaches the agent large, and stops
    await guest.page.getByTestId('screen-share-button').click();
    await expect(agent.page.getByTestId('remote-screen')).toHaveAttribute('data-has-video', 'true');
    await expectTileDecoding(agent.page, 'remote-screen', 'agent');
    await screenshot(agent.page, testInfo, 'incall-p2p-agent-sees-screen');
    await guest.page.getByTestId('screen-share-button').click();
    await expect(agent.page.getByTestId('remote-screen')).toHaveCount(0);

    // and the agent's screen reaches the guest
    await agent.page.getByTestId('agent-screen-share-button').click();
    await expectTileDecoding(guest.page, 'remote-screen', 'guest');
    await agent.page.getByTestId('agent-screen-share-button').click();
    await expect(guest.page.getByTestId('remote-screen')).toHaveCount(0);
    await expectMediaFlowing(guest.page, 'guest after the screen share');
  });
});

test('when the agent holds and resumes a p2p call, then the guest shows the hold page, media flows again under a new call id, and that call ends on the rating screen', async ({}, testInfo) => {
  await arrangeCompanySettings({ showRatingPage: true });
  await inAnsweredCall(testInfo, async ({ agent, guest, callId, agentJid }) => {
    const call = agent.page.getByTestId('active-call');

    await agent.page.getByTestId('agent-hold-button').click();
    await expect(guest.page.getByTestId('hold-page')).toBeVisible();
    await expect(call).toHaveAttribute('data-guest-presence', `CallOnHold|${agentJid}|${callId}`);
    await expect.poll(async () => (await mediaCounters(guest.page)).connections).toBe(0);
    await expect.poll(async () => (await mediaCounters(agent.page)).connections).toBe(0);

    await agent.page.getByTestId('agent-hold-button').click();
    await expect(call).not.toHaveAttribute('data-call-id', callId);
    const newCallId = (await call.getAttribute('data-call-id')) ?? '';
    await expect(guest.page.getByTestId('hold-page')).toHaveCount(0);
    await expectMediaFlowing(guest.page, 'guest after resume');
    await expectMediaFlowing(agent.page, 'agent after resume');
    await expect(call).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${newCallId}`);
    expect(await janusRoomExists(newCallId)).toBe(false);

    // the resumed call is reported and rated like any other
    await hangUpToRating(agent.page, guest.page, newCallId, agentJid);
  });
});

test('when an agent transfers a p2p call to another agent, then the guest stays in the call with the new agent\'s media, still without Janus', async ({}, testInfo) => {
  // three browsers with live media, the guest holding two sessions during the hand-over
  test.setTimeout(300_000);
  await arrangeCompanySettings({ showRatingPage: true });
  const second = await makeAgent('P2PTransfer', ['Sales']);
  const first = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  const taker = await launchParticipant('taker');
  const earlier = await janusSessions();
  try {
    const { callId, agentJid } = await guestCallsAndAgentAnswers(first, guest);
    const firstTrack = await trackOfTile(guest.page, 'remote-video');
    expect(firstTrack).not.toBeNull();
    await agentSignsIn(taker.page, second);
    await expect(taker.page.getByTestId('queue-panel')).toHaveAttribute('data-live', 'true');
    const takerJid = await consoleUserJid(taker.page);
    expect(takerJid).not.toBe(agentJid);

    // act: the first agent transfers to the second, who takes it
    await first.page.getByTestId('agent-transfer-button').click();
    await first.page.getByTestId('transfer-dialog').locator(`[data-testid="transfer-target-agent"][data-jid="${takerJid}"]`).click();
    await first.page.keyboard.press('Escape');
    const incoming = taker.page.getByTestId('incoming-transfer');
    await expect(incoming).toHaveAttribute('data-call-id', callId);
    await incoming.getByTestId('accept-transfer-button').click();

    // assert: the first agent leaves; the guest, in the same call, announces the new agent
    await expect(first.page.getByTestId('active-call')).toHaveCount(0);
    await expect(taker.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${takerJid}|${callId}`);
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(guest.page.getByTestId('remote-video')).toHaveAttribute('aria-label', second.name);
    await expect(guest.page.getByTestId('remote-video-other')).toHaveCount(0);

    // assert: the guest's main tile shows another track, the taker's, whose frames it decodes; the
    // guest keeps one peer connection (to the taker), the first agent none, and Janus holds nothing
    await expect.poll(() => trackOfTile(guest.page, 'remote-video')).not.toBe(firstTrack);
    await expectTileDecoding(guest.page, 'remote-video', 'guest (the taker\'s video)');
    await expect.poll(async () => (await selectedPairs(guest.page)).length, { message: 'the guest\'s open peer connections' }).toBe(1);
    await expect.poll(async () => (await mediaCounters(first.page)).connections, { message: 'the first agent\'s peer connections' }).toBe(0);
    await expectMediaFlowing(guest.page, 'guest after the transfer');
    await expectMediaFlowing(taker.page, 'taker');
    expect(await framesOfTile(guest.page, 'remote-video')).toBeGreaterThan(0);
    expect(await janusRoomExists(callId)).toBe(false);
    expect(await newJanusSessions(earlier)).toEqual([]);
    await screenshot(guest.page, testInfo, 'incall-p2p-transfer-guest');

    // act: the taker hangs up; assert: rating screen, the report names the taker
    await hangUpToRating(taker.page, guest.page, callId, takerJid);
  } finally {
    await closeAll(testInfo, first, guest, taker);
  }
});

test("when a stranger sends the agent a Jingle session-initiate during a p2p call, then it is declined and the call goes on", async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  const strangerReg = await registerGuest();
  const stranger = new RawXmpp(strangerReg.jabberusername);
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    // arrange: another guest of the company joins its own room and opens a call there, so the agent
    // joins that room too and the stranger learns the agent's full JID from its presence
    await stranger.connect(XMPP_WS_URL, strangerReg.credential, 'stranger');
    const room = strangerReg.guestRooms[0]!.room;
    stranger.send(`<presence to="${room}/${strangerReg.username}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
    const callId = `${strangerReg.username}--${randomUUID().slice(0, 8)}`;
    await addReport(strangerReg.access_token, { call_id: callId, company: 18, source: 'site', assignment_id: strangerReg.guestRooms[0]!.assignmentId });
    const agentPresence = await stranger.waitFor(
      (x) => x.startsWith('<presence') && x.includes(`from="${room}/`) && x.includes('@lobby.local/console-'),
      "the agent's presence in the stranger's room",
      20_000,
    );
    const agentFullJid = /jid="([^"]+@lobby\.local\/console-[^"]+)"/.exec(agentPresence)?.[1] ?? '';
    expect(agentFullJid).not.toBe('');

    // act: the stranger offers a Jingle RTP session to the agent
    const sid = `s${randomUUID().slice(0, 8)}`;
    stranger.send(
      `<iq type="set" to="${agentFullJid}" id="${sid}-init"><jingle xmlns="urn:xmpp:jingle:1" action="session-initiate" sid="${sid}" initiator="${stranger.fullJid}">` +
        `<content creator="initiator" name="0" senders="both"><description xmlns="urn:xmpp:jingle:apps:rtp:1" media="audio"><payload-type id="111" name="opus" clockrate="48000" channels="2"/></description>` +
        `<transport xmlns="urn:xmpp:jingle:transports:ice-udp:1" ufrag="abcd" pwd="abcdefghijklmnopqrstuvwx"><fingerprint xmlns="urn:xmpp:jingle:apps:dtls:0" hash="sha-256" setup="actpass">AA:BB</fingerprint></transport></content></jingle></iq>`,
    );

    // assert: the agent declines it (session-terminate with <decline/>), its call goes on undisturbed
    const terminate = await stranger.waitFor((x) => x.includes('session-terminate') && x.includes(sid), 'the decline', 15_000);
    expect(terminate).toContain('<decline');
    expect(await selectedPairs(agent.page)).toHaveLength(1);
    await expectMediaFlowing(agent.page, 'agent after the stranger');
    await expect(agent.page.getByTestId('active-call')).toBeVisible();
  } finally {
    stranger.close();
    await closeAll(testInfo, agent, guest);
  }
});

test('when a supervisor tries to join a p2p call, then it is refused with a message saying why and the call goes on', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  let supervisor: LaunchedBrowser | null = null;
  try {
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    // launched once the call is up (a third browser starting meanwhile only slows the call's set-up)
    supervisor = await launchParticipant('supervisor');
    await supervisorSignsIn(supervisor.page);
    const running = supervisor.page.locator(`[data-testid="running-call"][data-call-id="${callId}"]`);
    await running.getByTestId('join-call-button').click();
    await expect(supervisor.page.getByTestId('join-refused')).toHaveText(/nobody else can join/);
    await expect(supervisor.page.getByTestId('active-call')).toHaveCount(0);
    await expectMediaFlowing(guest.page, 'guest after the refused join');
    await screenshot(supervisor.page, testInfo, 'incall-p2p-join-refused');
  } finally {
    await closeAll(testInfo, agent, guest, ...(supervisor ? [supervisor] : []));
  }
});

test('when the admin sets p2p while recording is on, then it is refused naming recordCalls', async () => {
  const response = await setCompany({ callMethod: 'p2p', recordCalls: true });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { message: string }).message).toMatch(/^recordCalls: /);
});
