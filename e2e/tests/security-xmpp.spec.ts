/**
 * Attacker suite, XMPP plane (docs/security.md "XMPP"): a guest's registration
 * credential must not reach anyone but its own rooms and the server. The attacker is a bare XMPP client
 * over the public websocket (support/rawXmpp.ts), not the product's engine: it sends a chat message, a
 * subscription request and an IQ to another guest of its company, to an agent and to a guest of another
 * company. Each receiver is connected and proven to receive a legitimate stanza sent after the attack
 * (a message from the server through ejabberd's API); the attacker's stanzas never arrive.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleLogin, consoleXmppToken, DEMO_AGENT, registerGuest, XMPP_WS_URL } from '../support/api.ts';
import { ensureOtherCompany, ensureOtherCompanyAgent } from '../support/otherCompany.ts';
import { jingleInitiate, RawXmpp } from '../support/rawXmpp.ts';

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

test("when a guest asks another guest's room what it is (disco#info, disco#items), then nothing comes back while its own room answers", async () => {
  // arrange: two guests of one company, each with its own room of the same assignment; the victim is in its room
  const attackerReg = await registerGuest();
  const victimReg = await registerGuest();
  const own = attackerReg.guestRooms[0]!;
  const victimRoom = victimReg.guestRooms.find((r) => r.assignmentId === own.assignmentId)!;
  const attacker = new RawXmpp(attackerReg.jabberusername);
  const victim = new RawXmpp(victimReg.jabberusername);
  try {
    await attacker.connect(XMPP_WS_URL, attackerReg.credential, 'attacker');
    await victim.connect(XMPP_WS_URL, victimReg.credential, `victim-${randomUUID().slice(0, 8)}`);
    victim.send(`<presence to="${victimRoom.room}/${victimReg.username}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
    await victim.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${victimRoom.room}/${victimReg.username}"`), "the victim's join");
    const marker = `disco-${randomUUID().slice(0, 8)}`;

    // act: disco#info of its own room (control), then disco#info and disco#items of the victim's room and of the victim in it
    attacker.send(`<iq type="get" to="${own.room}" id="${marker}-own"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>`);
    const ownInfo = await attacker.waitFor((x) => x.includes(`id="${marker}-own"`), 'its own room\'s disco#info');
    attacker.send(`<iq type="get" to="${victimRoom.room}" id="${marker}-info"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>`);
    attacker.send(`<iq type="get" to="${victimRoom.room}" id="${marker}-items"><query xmlns="http://jabber.org/protocol/disco#items"/></iq>`);
    attacker.send(`<iq type="get" to="${victimRoom.room}/${victimReg.username}" id="${marker}-nick"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>`);
    attacker.send(`<iq type="get" id="${marker}-ping"><ping xmlns="urn:xmpp:ping"/></iq>`);
    await attacker.waitFor((x) => x.includes(`id="${marker}-ping"`), 'ping answer');
    // one more round trip through the MUC service: any answer of the victim's room would be in by now
    attacker.send(`<iq type="get" to="${own.room}" id="${marker}-own2"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>`);
    await attacker.waitFor((x) => x.includes(`id="${marker}-own2"`), 'its own room\'s second disco#info');

    // assert: its own room answers with what a room is; the victim's room tells nothing (no answer, not even an error naming it)
    expect(ownInfo).toContain('type="result"');
    expect(ownInfo).toContain('http://jabber.org/protocol/muc');
    expect(attacker.received.filter((x) => x.includes(victimRoom.room) || x.includes(`${marker}-info`) || x.includes(`${marker}-items`) || x.includes(`${marker}-nick`))).toEqual([]);
  } finally {
    attacker.close();
    victim.close();
  }
});

test("when a guest in its room sends a Jingle session-initiate to another guest or to another company's agent, then only its own room's agent receives it", async () => {
  // arrange: the attacker guest joins its own room (the filter's Jingle exception looks at the guest's
  // rooms); the receivers: another guest of its company (in its own room too), an agent of another
  // company, and — the control — an agent of the attacker's room (admin of it: it serves Sales)
  const attackerReg = await registerGuest();
  const otherGuestReg = await registerGuest();
  const otherAgentToken = await consoleXmppToken(await consoleLogin(await ensureOtherCompanyAgent()));
  const ownAgentToken = await consoleXmppToken(await consoleLogin(DEMO_AGENT));
  const attacker = new RawXmpp(attackerReg.jabberusername);
  const otherGuest = new RawXmpp(otherGuestReg.jabberusername);
  const receivers = {
    'another guest of the company': otherGuest,
    "another company's agent": new RawXmpp(otherAgentToken.jid),
  };
  const ownAgent = new RawXmpp(ownAgentToken.jid);
  try {
    await attacker.connect(XMPP_WS_URL, attackerReg.credential, 'attacker');
    await otherGuest.connect(XMPP_WS_URL, otherGuestReg.credential, `victim-${randomUUID().slice(0, 8)}`);
    await receivers["another company's agent"].connect(XMPP_WS_URL, otherAgentToken.credential, `console-${randomUUID().slice(0, 8)}`);
    await ownAgent.connect(XMPP_WS_URL, ownAgentToken.credential, `console-${randomUUID().slice(0, 8)}`);
    for (const [client, reg] of [[attacker, attackerReg], [otherGuest, otherGuestReg]] as const) {
      const room = reg.guestRooms[0]!.room;
      client.send(`<presence to="${room}/${reg.username}"><x xmlns="http://jabber.org/protocol/muc"/></presence>`);
      const joined = await client.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${room}/${reg.username}"`), 'its room join');
      expect(joined).not.toContain('type="error"');
    }
    const marker = `jingle-${randomUUID().slice(0, 8)}`;

    // act: the attacker offers a Jingle session to each receiver's full JID, and (control) to its agent's
    for (const [i, receiver] of Object.values(receivers).entries()) attacker.send(jingleInitiate(attacker.fullJid, receiver.fullJid, `${marker}-${i}`));
    attacker.send(jingleInitiate(attacker.fullJid, ownAgent.fullJid, `${marker}-own`));
    attacker.send(`<iq type="get" id="${marker}-ping"><ping xmlns="urn:xmpp:ping"/></iq>`);
    await attacker.waitFor((x) => x.includes(`id="${marker}-ping"`), 'ping answer');

    // assert: the agent of the attacker's room gets the offer (the stanza is one ejabberd delivers) …
    await ownAgent.waitFor((x) => x.includes(`sid="${marker}-own"`), "the attacker's own agent: the session-initiate");
    // … each receiver gets the server's message sent after it, and no Jingle at all
    for (const [who, receiver] of Object.entries(receivers)) {
      const legit = `legit-${randomUUID()}`;
      await serverSays(receiver.fullJid, legit);
      await receiver.waitFor((x) => x.includes(legit), `${who}: the server's message`);
      expect(receiver.received.filter((x) => x.includes(marker) || x.includes('urn:xmpp:jingle:1')), `${who} received the Jingle offer`).toEqual([]);
    }
    // the attacker is never told the offers arrived (nothing, or an error)
    const results = attacker.received.filter((x) => x.startsWith('<iq') && x.includes('type="result"') && (x.includes(`id="${marker}-0"`) || x.includes(`id="${marker}-1"`)));
    expect(results).toEqual([]);
  } finally {
    attacker.close();
    ownAgent.close();
    for (const r of Object.values(receivers)) r.close();
  }
});
