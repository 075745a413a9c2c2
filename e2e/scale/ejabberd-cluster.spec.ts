/**
 * Two ejabberd nodes in one cluster (docs/operations.md "Scaling", scripts/lib/ejabberd-cluster.sh): a guest
 * and an agent on different nodes call, chat and hold; then the faults, each with both sides' media
 * measured. A room is one process on one node and its occupants on other nodes are not told when that
 * node dies: each client's self-ping (docs/protocol.md "Self-ping") finds it out and joins again. A guest
 * whose own node dies reconnects through nginx to the other one. A node restarted joins the cluster again.
 * The browsers are pinned to a node by nginx's XMPP doors (ejabberdNodes.ts xmppDoor). And a p2p guest's
 * Jingle passes to its agent when its session and its room sit on different nodes (mod_lobby_guest_filter
 * looks for the guest's rooms on every node), a stranger's still does not.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type TestInfo } from '@playwright/test';
import { consoleLogin, consoleXmppToken, DEMO_AGENT, registerGuest } from '../support/api.ts';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, hangUpWhatIsLeft, screenshot } from '../support/journey.ts';
import { decodedFramesDuring, expectMediaFlowing } from '../support/media.ts';
import { ensureOtherCompanyAgent } from '../support/otherCompany.ts';
import { jingleInitiate, RawXmpp } from '../support/rawXmpp.ts';
import { roomOccupants } from '../support/stack.ts';
import { chatBothWays, guestCalls, sendChat } from '../tests/incall-support.ts';
import { clusterOf, killNode, nodeWebsocket, roomNode, sessionNodes, startNodes, xmppDoor, type Node } from './ejabberdNodes.ts';

const GUEST_HOST = process.env.XMPP_GUEST_DOMAIN ?? 'guest.lobby.local';
const other = (i: Node): Node => (i === 1 ? 2 : 1);

/** Whatever a journey killed runs again for the next one (node 2 joins the cluster again). */
test.afterEach(async () => {
  await startNodes();
});

interface WaitingGuest {
  guest: LaunchedBrowser;
  callId: string;
  /** the room's local name, and its JID */
  room: string;
  roomJid: string;
  user: string;
}

const reportOf = async (callId: string) =>
  (
    await queryRows<{ guest_username: string; room_jid: string; guest_exit_at: number | null; call_answered_at: number | null }>(
      'select guest_username, room_jid, guest_exit_at, call_answered_at from call_reports where call_id = ?',
      [callId],
    )
  )[0]!;

/**
 * A guest (through the XMPP door of `door`) waits in `agent`'s queue, its room on node `roomOn` when given:
 * the server places a room by its name (apps/server/src/services/ejabberdCluster.ts), so guests are tried
 * until one's room is there (a guest whose room is elsewhere cancels its call and leaves).
 */
async function guestWaiting(agent: LaunchedBrowser, door: Node, roomOn?: Node): Promise<WaitingGuest> {
  const item = agent.page.getByTestId('queue-item');
  for (let attempt = 1; attempt <= 10; attempt++) {
    const guest = await launchParticipant(`guest-node-${door}-${attempt}`, { baseURL: xmppDoor(door), viewport: { width: 1024, height: 768 } });
    await guestCalls(guest.page);
    await expect(item).toHaveCount(1);
    const callId = (await item.getAttribute('data-call-id')) ?? '';
    const report = await reportOf(callId);
    const room = report.room_jid.split('@')[0] ?? '';
    let node: Node | null = null;
    await expect.poll(async () => (node = await roomNode(room, report.guest_username)), { timeout: 15_000 }).not.toBeNull();
    if (roomOn === undefined || node === roomOn) return { guest, callId, room, roomJid: report.room_jid, user: report.guest_username };
    await guest.page.getByTestId('cancel-button').click();
    await expect(item).toHaveCount(0);
    await guest.close();
  }
  throw new Error(`no guest's room landed on node ${roomOn} in 10 tries`);
}

/** The agent answers the waiting guest; both see the call with media. */
async function answer(agent: LaunchedBrowser, waiting: WaitingGuest, agentJid: string): Promise<void> {
  await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-media-ready', 'true');
  await agent.page.getByTestId('queue-item').getByTestId('answer-button').click();
  await expect(waiting.guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${waiting.callId}`);
  await expectMediaFlowing(waiting.guest.page, 'guest');
  await expectMediaFlowing(agent.page, 'agent');
}

/**
 * An agent signed in through the XMPP door of node `agent`, a guest through that of node `guest` waiting in
 * its queue (its room on node `room` when given), then `body`; both browsers closed whatever happened.
 */
async function withAgentAndWaitingGuest(
  testInfo: TestInfo,
  doors: { tag: string; agent: Node; guest: Node; room?: Node },
  body: (agent: LaunchedBrowser, w: WaitingGuest, agentJid: string) => Promise<void>,
): Promise<void> {
  const agent = await launchParticipant(doors.tag, { baseURL: xmppDoor(doors.agent) });
  let waiting: WaitingGuest | null = null;
  try {
    await agentSignsIn(agent.page);
    const agentJid = await consoleUserJid(agent.page);
    waiting = await guestWaiting(agent, doors.guest, doors.room);
    await body(agent, waiting, agentJid);
  } finally {
    await hangUpWhatIsLeft(agent);
    await closeAll(testInfo, agent, ...(waiting ? [waiting.guest] : []));
  }
}

/** Until the room's occupants are the agent and the guest again (as the first node that answers lists them). */
async function bothInRoom(w: WaitingGuest, agentJid: string, timeout: number): Promise<void> {
  await expect
    .poll(async () => (await roomOccupants(w.roomJid)).map((jid) => jid.split('/')[0]).sort(), { timeout, intervals: [250] })
    .toEqual([agentJid, `${w.user}@${GUEST_HOST}`].sort());
}

/** Neither side's decoded video nor received audio stopped for 2 s while the fault was recovered from. */
function expectNoStall(frames: Awaited<ReturnType<typeof decodedFramesDuring>>): void {
  expect(frames.samples).toBeGreaterThanOrEqual(6);
  expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
  expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
  expect(frames.longestAudioStall.guest, 'longest stall of received audio at the guest (ms)').toBeLessThan(2000);
  expect(frames.longestAudioStall.agent, 'longest stall of received audio at the agent (ms)').toBeLessThan(2000);
}

/** The vanished-guest sweep (every 3 s, 20 s of absence) has had the time to take the guest for gone: it did not; then the agent ends the call. */
async function notGoneThenEnd(agent: LaunchedBrowser, w: WaitingGuest): Promise<void> {
  await new Promise((r) => setTimeout(r, 25_000));
  expect((await reportOf(w.callId)).guest_exit_at).toBeNull();
  await agent.page.getByTestId('agent-hangup-button').click();
  await expect(agent.page.getByTestId('call-idle')).toBeVisible();
}

test('when the guest and the agent are connected to different ejabberd nodes, then they call, chat and hold', async ({}, testInfo) => {
  expect(await clusterOf(1)).toEqual(expect.arrayContaining(['lobby' + String(process.env.EJABBERD_DIST_PORT) + '@localhost', `lobby${process.env.EJABBERD_DIST_PORT}@lobby-ej2`]));
  await withAgentAndWaitingGuest(testInfo, { tag: 'agent-node-2', agent: 2, guest: 1 }, async (agent, w, agentJid) => {
    // each on the node its door names
    expect(await sessionNodes(w.user, GUEST_HOST)).toEqual([1]);
    expect(await sessionNodes(agentJid.split('@')[0]!, agentJid.split('@')[1]!)).toEqual([2]);

    await answer(agent, w, agentJid);
    await chatBothWays(w.guest.page, agent.page, 'across nodes');
    const call = agent.page.getByTestId('active-call');
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(w.guest.page.getByTestId('hold-page')).toBeVisible();
    await expect(call).toHaveAttribute('data-held', 'true');
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(call).toHaveAttribute('data-held', 'false');
    const resumedId = (await call.getAttribute('data-call-id')) ?? '';
    await expect(w.guest.page.getByTestId('hold-page')).toHaveCount(0);
    await expect(call).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${resumedId}`);
    await expectMediaFlowing(w.guest.page, 'guest after resume');
    await chatBothWays(w.guest.page, agent.page, 'after the hold');
    await screenshot(agent.page, testInfo, 'ejabberd-cluster-across-nodes');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  });
});

test("when the node holding a call's room is killed while the guest and the agent are connected to the other node, then both join the room again within seconds, media never stalls, chat works and the guest is not taken for gone", async ({}, testInfo) => {
  test.setTimeout(300_000);
  const sessionsOn: Node = 1;
  const roomOn = other(sessionsOn);
  await withAgentAndWaitingGuest(testInfo, { tag: 'agent-node-1', agent: sessionsOn, guest: sessionsOn, room: roomOn }, async (agent, w, agentJid) => {
    expect(await sessionNodes(w.user, GUEST_HOST)).toEqual([sessionsOn]);
    expect(await sessionNodes(agentJid.split('@')[0]!, agentJid.split('@')[1]!)).toEqual([sessionsOn]);
    await answer(agent, w, agentJid);
    await chatBothWays(w.guest.page, agent.page, 'before the kill');

    // act: SIGKILL to the room's node while both sides' media is sampled, until both are in the room again
    let backMs = 0;
    const frames = await decodedFramesDuring(w.guest.page, agent.page, async () => {
      await killNode(roomOn);
      const killed = Date.now();
      // each side writes into the room that went with the node: no echo comes, and each sends it again
      // once back in the room; the first one back meets an empty room and sends it again when the other
      // comes (docs/protocol.md "Chat delivery")
      await sendChat(agent.page, 'agent-', 'agent during the loss');
      await sendChat(w.guest.page, '', 'guest during the loss');
      // the room is restarted, empty, on the surviving node by the next stanza to it: the self-pings
      await bothInRoom(w, agentJid, 40_000);
      backMs = Date.now() - killed;
      await new Promise((r) => setTimeout(r, 2000));
    });
    console.log(`room's node killed mid-call: both in the room again ${backMs} ms after the kill; ${JSON.stringify(frames)}`);
    expect(await roomNode(w.room, w.user)).toBe(sessionsOn);
    // within a self-ping round (12 s) and its answer, with room for a loaded machine
    expect(backMs).toBeLessThan(30_000);
    expectNoStall(frames);

    // what each wrote while the room was gone reached the other, once
    await expect(w.guest.page.getByTestId('chat-message').filter({ hasText: 'agent during the loss' })).toHaveCount(1);
    await expect(agent.page.getByTestId('chat-message').filter({ hasText: 'guest during the loss' })).toHaveCount(1);
    await chatBothWays(w.guest.page, agent.page, 'after the kill');
    await expect(agent.page.getByTestId('active-call')).toHaveAttribute('data-guest-presence', `InCall|${agentJid}|${w.callId}`);
    await notGoneThenEnd(agent, w);
  });
});

test('when the node holding a waiting guest\'s room is killed while the guest and the agent are connected to the other node, then the guest is listed again within seconds and the call is answered with media and chat', async ({}, testInfo) => {
  test.setTimeout(300_000);
  await withAgentAndWaitingGuest(testInfo, { tag: 'agent-node-1-waiting', agent: 1, guest: 1, room: 2 }, async (agent, w, agentJid) => {
    await killNode(2);
    const killed = Date.now();
    await bothInRoom(w, agentJid, 40_000);
    const backMs = Date.now() - killed;
    await expect(agent.page.getByTestId('queue-item')).toHaveAttribute('data-call-id', w.callId);
    console.log(`room's node killed while the guest waits: both in the room again ${backMs} ms after the kill`);
    expect(backMs).toBeLessThan(30_000);
    await answer(agent, w, agentJid);
    await chatBothWays(w.guest.page, agent.page, 'after the kill');
    expect((await reportOf(w.callId)).guest_exit_at).toBeNull();
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  });
});

test("when the node holding the guest's connection is killed mid-call, then the guest reconnects to the other node and joins its room again, media never stalls and chat works", async ({}, testInfo) => {
  test.setTimeout(300_000);
  await withAgentAndWaitingGuest(testInfo, { tag: 'agent-node-2-conn', agent: 2, guest: 1, room: 2 }, async (agent, w, agentJid) => {
    // the guest's stream on node 1, its room and the agent on node 2: only the connection is lost
    expect(await sessionNodes(w.user, GUEST_HOST)).toEqual([1]);
    await answer(agent, w, agentJid);
    await chatBothWays(w.guest.page, agent.page, 'before the kill');

    let backMs = 0;
    const frames = await decodedFramesDuring(w.guest.page, agent.page, async () => {
      await killNode(1);
      const killed = Date.now();
      // nginx sends the guest's reconnection to node 2 (its door's backup); node 2 may still list the dead
      // node's session of the guest for a while (seen in a run), so the new one is what is looked for
      await expect.poll(() => sessionNodes(w.user, GUEST_HOST), { timeout: 40_000, intervals: [500] }).toContain(2);
      await bothInRoom(w, agentJid, 30_000);
      backMs = Date.now() - killed;
      await new Promise((r) => setTimeout(r, 2000));
    });
    console.log(`guest's node killed mid-call: guest on node 2 and in its room again ${backMs} ms after the kill; its sessions' nodes now ${JSON.stringify(await sessionNodes(w.user, GUEST_HOST))}; ${JSON.stringify(frames)}`);
    expect(backMs).toBeLessThan(30_000);
    expectNoStall(frames);
    await expect(w.guest.page.locator('[data-testid="media-notice"][data-notice="signallingReconnecting"]')).toHaveCount(0);
    await chatBothWays(w.guest.page, agent.page, 'after the kill');
    await notGoneThenEnd(agent, w);
  });
});

test('when a killed node is started again, then it joins the cluster again and rooms are created on it again', async ({}, testInfo) => {
  test.setTimeout(300_000);
  await killNode(2);
  expect(await clusterOf(1)).toEqual([`lobby${process.env.EJABBERD_DIST_PORT}@localhost`]);
  const started = await startNodes();
  console.log(`node 2 started again: ${started.split('\n').filter((l) => /joined|running/.test(l)).join(' | ')}`);
  expect(started).toMatch(/ejabberd-2: joined lobby\d+@localhost in \d+ ms/);
  for (const i of [1, 2] as const) {
    expect((await clusterOf(i)).sort(), `node ${i}'s cluster`).toEqual([`lobby${process.env.EJABBERD_DIST_PORT}@lobby-ej2`, `lobby${process.env.EJABBERD_DIST_PORT}@localhost`]);
  }
  // a new guest's room on node 2 (the server asks it again), answered with media and chat
  await withAgentAndWaitingGuest(testInfo, { tag: 'agent-node-1-restart', agent: 1, guest: 2, room: 2 }, async (agent, w, agentJid) => {
    await answer(agent, w, agentJid);
    await chatBothWays(w.guest.page, agent.page, 'on the restarted node');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  });
});

test("when a p2p guest's session and its room sit on different nodes, then its Jingle reaches its room's agent and back, and another company's agent's Jingle stays dropped", async () => {
  const reg = await registerGuest();
  const roomJid = reg.guestRooms[0]!.room;
  const room = roomJid.split('@')[0]!;
  const user = reg.jabberusername.split('@')[0]!;
  const join = async (client: RawXmpp, nick: string) => {
    client.send(`<presence to="${roomJid}/${nick}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
    const joined = await client.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${roomJid}/${nick}"`), 'its room join');
    expect(joined).not.toContain('type="error"');
  };
  // the room's node: the server created it on one; a first session of the guest in it says which
  const probe = new RawXmpp(reg.jabberusername);
  await probe.connect(nodeWebsocket(1), reg.credential, 'probe');
  await join(probe, user);
  let roomOn: Node | null = null;
  await expect.poll(async () => (roomOn = await roomNode(room, user))).not.toBeNull();
  probe.close();
  const guestOn = other(roomOn!);

  const agentToken = await consoleXmppToken(await consoleLogin(DEMO_AGENT));
  const strangerToken = await consoleXmppToken(await consoleLogin(await ensureOtherCompanyAgent()));
  const guest = new RawXmpp(reg.jabberusername);
  const agent = new RawXmpp(agentToken.jid);
  const stranger = new RawXmpp(strangerToken.jid);
  try {
    await guest.connect(nodeWebsocket(guestOn), reg.credential, 'web');
    await agent.connect(nodeWebsocket(roomOn!), agentToken.credential, `console-${randomUUID().slice(0, 8)}`);
    await stranger.connect(nodeWebsocket(guestOn), strangerToken.credential, `console-${randomUUID().slice(0, 8)}`);
    await join(guest, user);
    expect(await sessionNodes(user, GUEST_HOST)).toEqual([guestOn]);
    expect(await roomNode(room, user)).toBe(roomOn);
    const marker = `jingle-${randomUUID().slice(0, 8)}`;

    // the guest offers, its room's agent receives; the agent answers a session of its own, the guest receives
    guest.send(jingleInitiate(guest.fullJid, agent.fullJid, `${marker}-guest`));
    await agent.waitFor((x) => x.includes(`sid="${marker}-guest"`), "the room's agent: the guest's session-initiate");
    stranger.send(jingleInitiate(stranger.fullJid, guest.fullJid, `${marker}-stranger`));
    agent.send(jingleInitiate(agent.fullJid, guest.fullJid, `${marker}-agent`));
    await guest.waitFor((x) => x.includes(`sid="${marker}-agent"`), "the guest: its agent's session-initiate");
    // the stranger's offer, sent first, has had every chance to arrive
    stranger.send(`<iq type="get" id="${marker}-ping"><ping xmlns="urn:xmpp:ping"/></iq>`);
    await stranger.waitFor((x) => x.includes(`id="${marker}-ping"`), 'ping answer');
    await new Promise((r) => setTimeout(r, 1000));
    expect(guest.received.filter((x) => x.includes(`${marker}-stranger`))).toEqual([]);
  } finally {
    guest.close();
    agent.close();
    stranger.close();
  }
});
