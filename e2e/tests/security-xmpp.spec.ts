/**
 * Attacker suite, XMPP plane (issue 11 finding 4, docs/security.md "XMPP"): a guest's registration
 * credential must not reach anyone but its own rooms and the server. The attacker is a bare XMPP client
 * over the public websocket (support/rawXmpp.ts), not the product's engine: it sends a chat message, a
 * subscription request and an IQ to another guest of its company, to an agent and to a guest of another
 * company. Each receiver is connected and proven to receive a legitimate stanza sent after the attack
 * (a message from the server through ejabberd's API); the attacker's stanzas never arrive.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleLogin, consoleXmppToken, DEMO_AGENT, registerGuest, XMPP_WS_URL } from '../support/api.ts';
import { ensureOtherCompany } from '../support/otherCompany.ts';
import { RawXmpp } from '../support/rawXmpp.ts';

const EJABBERD_API_URL = process.env.EJABBERD_API_URL ?? 'http://127.0.0.1:5281/api';
const SERVER_JID = process.env.XMPP_DOMAIN ?? 'lobby.local';

/** A legitimate stanza: a chat message from the server's own JID, through ejabberd's loopback API. */
async function serverSays(to: string, body: string): Promise<void> {
  const response = await fetch(`${EJABBERD_API_URL}/send_message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'chat', from: SERVER_JID, to, subject: '', body }),
  });
  expect(response.status, `ejabberd send_message: ${await response.text()}`).toBe(200);
}

test('when a guest addresses another guest, an agent or another company directly over XMPP, then nothing is delivered', async () => {
  // arrange: the attacker (a guest), and three connected receivers
  const attackerReg = await registerGuest();
  const sameCompanyReg = await registerGuest();
  const otherCompanyReg = await registerGuest(await ensureOtherCompany());
  const agentToken = await consoleXmppToken(await consoleLogin(DEMO_AGENT));
  const attacker = new RawXmpp(attackerReg.jabberusername);
  const receivers = {
    'a guest of the same company': new RawXmpp(sameCompanyReg.jabberusername),
    'an agent': new RawXmpp(agentToken.jid),
    'a guest of another company': new RawXmpp(otherCompanyReg.jabberusername),
  };
  const credentials = [sameCompanyReg.credential, agentToken.credential, otherCompanyReg.credential];
  try {
    await attacker.connect(XMPP_WS_URL, attackerReg.credential, 'attacker');
    await Promise.all(
      Object.values(receivers).map((r, i) => r.connect(XMPP_WS_URL, credentials[i]!, `victim-${randomUUID().slice(0, 8)}`)),
    );
    const marker = `attack-${randomUUID()}`;

    // act: the attacker addresses each receiver's bare and full JID with a message, a subscription and an IQ
    for (const receiver of Object.values(receivers)) {
      for (const to of [receiver.jid, receiver.fullJid]) {
        attacker.send(`<message type="chat" to="${to}" id="${marker}-m"><body>${marker}</body></message>`);
        attacker.send(`<presence type="subscribe" to="${receiver.jid}" id="${marker}-s"/>`);
        attacker.send(`<iq type="get" to="${to}" id="${marker}-iq"><query xmlns="jabber:iq:version"/></iq>`);
      }
    }
    // the attacker's session has handled every stanza above once the server answers a later ping
    attacker.send(`<iq type="get" id="${marker}-ping"><ping xmlns="urn:xmpp:ping"/></iq>`);
    await attacker.waitFor((x) => x.includes(`id="${marker}-ping"`), 'ping answer');

    // assert: each receiver gets the server's message sent after the attack, and none of the attack
    for (const [who, receiver] of Object.entries(receivers)) {
      const legit = `legit-${randomUUID()}`;
      await serverSays(receiver.fullJid, legit);
      await receiver.waitFor((x) => x.includes(legit), `${who}: the server's message`);
      expect(receiver.received.filter((x) => x.includes(marker)), `${who} received the attacker's stanzas`).toEqual([]);
    }
  } finally {
    attacker.close();
    for (const r of Object.values(receivers)) r.close();
  }
});

test("when a guest joins another guest's room, then it is refused while its own room admits it", async () => {
  // arrange: two guests of one company, each with its own room of the same assignment
  const attackerReg = await registerGuest();
  const victimReg = await registerGuest();
  const own = attackerReg.guestRooms[0]!;
  const victimRoom = victimReg.guestRooms.find((r) => r.assignmentId === own.assignmentId)!;
  const attacker = new RawXmpp(attackerReg.jabberusername);
  try {
    await attacker.connect(XMPP_WS_URL, attackerReg.credential, 'attacker');
    // act: join its own room (control), then the victim's
    attacker.send(`<presence to="${own.room}/${attackerReg.username}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
    const ownJoin = await attacker.waitFor((x) => x.includes(`from="${own.room}/${attackerReg.username}"`), 'own room join');
    attacker.send(`<presence to="${victimRoom.room}/${attackerReg.username}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
    const victimJoin = await attacker.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${victimRoom.room}`), "the victim's room answer");
    // assert
    expect(ownJoin).not.toContain('type="error"');
    expect(victimJoin).toContain('type="error"');
  } finally {
    attacker.close();
  }
});
