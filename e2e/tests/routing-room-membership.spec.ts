/**
 * Guest rooms are members-only (ejabberd). An agent added to an assignment after a guest registered must
 * get into that guest's existing room; before being added it is refused. Real server, real ejabberd.
 */
import { expect, test } from '@playwright/test';
import { XmppSession } from '@lobby/call';
import { consoleLogin, consoleXmppToken, registerGuest, XMPP_WS_URL } from '../support/api.ts';
import { adminApi, makeAgent } from './routing-support.ts';

const agentElement = { userType: 'agent' as const, appointmentID: '' };

const tryJoin = (session: XmppSession, room: string, nick: string) =>
  session.joinRoom(room, nick, '', agentElement).then(
    () => 'joined',
    (error: unknown) => `refused: ${String((error as { error?: { condition?: string } })?.error?.condition ?? error)}`,
  );

test("when an admin adds an agent to an assignment after a guest registered, then the agent can enter that guest's existing room", async () => {
  const guest = await registerGuest();
  const support = guest.guestRooms.find((r) => r.name === 'Support')!;
  const late = await makeAgent('Late', []); // serves nothing yet
  const token = await consoleXmppToken(await consoleLogin({ email: late.email, password: late.password }));
  const nick = token.jid.split('@')[0]!;

  const before = new XmppSession({ wsUrl: XMPP_WS_URL, jid: token.jid, credential: token.credential, resource: 'membership-before' });
  await before.connect();
  expect(await tryJoin(before, support.room, nick)).toBe('refused: registration-required');
  await before.disconnect();

  const { assignments } = await adminApi<{ assignments: Array<{ id: number; name: string; type: string; agentIds: number[] }> }>('GET', '/admin/assignments');
  const supportAssignment = assignments.find((a) => a.id === support.assignmentId)!;
  await adminApi('PUT', `/admin/assignments/${supportAssignment.id}`, {
    name: supportAssignment.name,
    type: supportAssignment.type,
    agentIds: [...supportAssignment.agentIds, late.id],
  });

  const after = new XmppSession({ wsUrl: XMPP_WS_URL, jid: token.jid, credential: token.credential, resource: 'membership-after' });
  await after.connect();
  try {
    expect(await tryJoin(after, support.room, nick)).toBe('joined');
  } finally {
    await after.disconnect();
    // leave the demo assignment as it was
    await adminApi('PUT', `/admin/assignments/${supportAssignment.id}`, {
      name: supportAssignment.name,
      type: supportAssignment.type,
      agentIds: supportAssignment.agentIds,
    });
  }
});
