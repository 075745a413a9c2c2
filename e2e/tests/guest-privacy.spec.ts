/**
 * Guests of one company and one assignment never learn of each other (docs/security.md "XMPP"): each
 * guest has its own members-only room per assignment, so a second guest receives neither the first
 * guest's presence, nor its JID, nor its call id, and cannot join the first guest's room.
 * Real server, real ejabberd, through the server's websocket proxy.
 */
import { expect, test } from '@playwright/test';
import { XmppSession, newCallId, type RoomPresence } from '@lobby/call';
import {
  addReport,
  consoleLogin,
  consoleXmppToken,
  DEMO_AGENT,
  registerGuest,
  XMPP_WS_URL,
} from '../support/api.ts';

const guestElement = { userType: 'guest' as const, appointmentID: '' };

test('when two guests of one assignment are online and one calls, then the other never learns of it', async () => {
  // arrange: two guests, each connected and in its own room of the same assignment
  const a = await registerGuest();
  const b = await registerGuest();
  const roomA = a.guestRooms[0]!;
  const roomB = b.guestRooms.find((r) => r.assignmentId === roomA.assignmentId)!;
  expect(roomB, 'both guests have a room for the same assignment').toBeTruthy();
  expect(roomB.room).not.toBe(roomA.room);

  const sessionA = new XmppSession({ wsUrl: XMPP_WS_URL, jid: a.jabberusername, credential: a.credential });
  const sessionB = new XmppSession({ wsUrl: XMPP_WS_URL, jid: b.jabberusername, credential: b.credential });
  await sessionA.connect();
  await sessionB.connect();
  const seenByB: string[] = [];
  sessionB.client.on('raw:incoming', (xml) => seenByB.push(xml));
  await sessionA.joinRoom(roomA.room, a.username, '', guestElement);
  await sessionB.joinRoom(roomB.room, b.username, '', guestElement);

  // positive control: an agent of the assignment in A's room does receive A's presence
  const cookie = await consoleLogin(DEMO_AGENT);
  const token = await consoleXmppToken(cookie);
  const agent = new XmppSession({
    wsUrl: XMPP_WS_URL,
    jid: token.jid,
    credential: token.credential,
    resource: 'privacy-test',
  });
  await agent.connect();
  const agentSaw: RoomPresence[] = [];
  agent.on('roomPresence', (p) => agentSaw.push(p));
  await agent.joinRoom(roomA.room, token.jid.split('@')[0]!, '', { userType: 'agent', appointmentID: '' });

  // act: A opens a call and announces it
  const callId = newCallId(a.username);
  expect((await addReport(a.access_token, { call_id: callId, company: 18, source: 'site' })).status).toBe(
    'ok',
  );
  sessionA.setRoomPresence(roomA.room, a.username, `OpenCall|roundRobin|${callId}`, guestElement);
  await expect
    .poll(() =>
      agentSaw.some((p) => p.nick === a.username && p.statusText === `OpenCall|roundRobin|${callId}`),
    )
    .toBe(true);
  // the agent saw it; give ejabberd the same time again to deliver anything it would send to B
  await new Promise((r) => setTimeout(r, 500));

  // assert: nothing B received mentions A
  const everything = seenByB.join('\n');
  expect(everything).toContain(roomB.room); // B did receive its own room's traffic
  expect(everything).not.toContain(a.username);
  expect(everything).not.toContain(callId);
  expect(everything).not.toContain(a.jabberusername);

  // and B cannot get into A's room even knowing its name (the refusal only echoes B's own request)
  const received = seenByB.length;
  const intrusion = await sessionB.joinRoom(roomA.room, b.username, '', guestElement).then(
    () => 'joined',
    (error: unknown) =>
      `refused: ${String((error as { error?: { condition?: string } })?.error?.condition ?? error)}`,
  );
  expect(intrusion).toBe('refused: registration-required');
  expect(seenByB.slice(received).join('\n')).not.toContain(callId);

  await Promise.all([sessionA.disconnect(), sessionB.disconnect(), agent.disconnect()]);
});
