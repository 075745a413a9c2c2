/**
 * A light guest (e2e/support/lightGuest.ts) that stays in its room the way the guest app does when an
 * ejabberd node dies (docs/protocol.md "Self-ping"): it pings its own occupant JID every 12 s (8 s to
 * answer) and, found out of the room, joins it again and announces OpenCall; when its stream closes (its
 * node died) it connects again, to the websocket `reconnectTo` names, 1 s later, and joins its room
 * again. And it chats: numbered groupchat messages to its room, and a count of the agent's it received.
 * Not the product's engine: bench/ejabberd-cluster.ts measures ejabberd's part of a node's loss with it.
 */
import { joinPresence, openCallPresence, type LightGuest } from '../../e2e/support/lightGuest.ts';
import { RawXmpp } from '../../e2e/support/rawXmpp.ts';

const PING_EVERY_MS = 12_000;
const PING_ANSWER_MS = 8_000;
const RECONNECT_AFTER_MS = 1_000;
/** a groupchat body the bench sends: `bench-chat <from> <seq>` */
export const chatBody = (from: string, seq: number): string => `bench-chat ${from} ${seq}`;

export interface StayingGuest {
  guest: LightGuest;
  /** performance.now() of each rejoin announced (after a self-ping found it out, or a reconnection) */
  rejoinedAt: number[];
  /** sends chat message `seq` to its room (nothing while its stream is down: the app queues nothing either) */
  chat: (seq: number) => boolean;
  /** the agent's chat messages received (their seq) */
  chatReceived: Set<number>;
  stop: () => void;
}

export function stayInRoom(guest: LightGuest, reconnectTo: () => string): StayingGuest {
  const self = `${guest.room}/${guest.username}`;
  const rejoinedAt: number[] = [];
  const chatReceived = new Set<number>();
  let stopped = false;
  let pingId = 0;
  /** counts the agent's chat messages received so far and clears what the stream kept (an old join's answer
   * left there would answer the next rejoin's wait at once) */
  const drain = (xmpp: RawXmpp = guest.xmpp): void => {
    for (const x of xmpp.received.splice(0)) {
      const m = /<body>bench-chat agent (\d+)<\/body>/.exec(x);
      if (m && x.startsWith('<message')) chatReceived.add(Number(m[1]));
    }
  };
  const drainTimer = setInterval(() => drain(), 200);

  const rejoin = async (xmpp: RawXmpp): Promise<void> => {
    drain(xmpp);
    const joined = xmpp.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${self}"`) && x.includes('code="110"'), `rejoin ${guest.room}`, 15_000);
    xmpp.send(joinPresence(self));
    await joined;
    xmpp.send(openCallPresence(self, guest.callId));
    rejoinedAt.push(performance.now());
  };

  const watchClose = (xmpp: RawXmpp): void => {
    xmpp.onClose = () => {
      if (stopped) return;
      setTimeout(() => void reconnect(), RECONNECT_AFTER_MS);
    };
  };
  const reconnect = async (): Promise<void> => {
    for (let attempt = 0; !stopped && attempt < 30; attempt++) {
      const xmpp = new RawXmpp(guest.jid);
      try {
        await xmpp.connect(reconnectTo(), guest.credential, `light-again-${attempt}`);
        drain();
        guest.xmpp = xmpp;
        watchClose(xmpp);
        await rejoin(xmpp);
        return;
      } catch {
        xmpp.close();
        await new Promise((r) => setTimeout(r, RECONNECT_AFTER_MS));
      }
    }
  };
  watchClose(guest.xmpp);

  const ping = async (): Promise<void> => {
    const xmpp = guest.xmpp;
    if (stopped || !xmpp.open) return;
    const id = `self-ping-${pingId++}`;
    const answer = xmpp
      .waitFor((x) => x.startsWith('<iq') && x.includes(`id="${id}"`), 'self-ping answer', PING_ANSWER_MS)
      .catch(() => null);
    xmpp.send(`<iq type="get" to="${self}" id="${id}"><ping xmlns="urn:xmpp:ping"/></iq>`);
    const iq = await answer;
    const stillIn = iq !== null && (iq.includes('type="result"') || /service-unavailable|feature-not-implemented/.test(iq));
    if (!stillIn && !stopped && xmpp.open && xmpp === guest.xmpp) await rejoin(xmpp).catch(() => undefined);
  };
  // each guest's round starts at its own moment, as the guests' apps started at different times
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  const firstPing = setTimeout(() => {
    pingTimer = setInterval(() => void ping(), PING_EVERY_MS);
  }, Math.random() * PING_EVERY_MS);

  return {
    guest,
    rejoinedAt,
    chatReceived,
    chat(seq) {
      if (!guest.xmpp.open) return false;
      guest.xmpp.send(`<message to="${guest.room}" type="groupchat"><body>${chatBody('guest', seq)}</body></message>`);
      return true;
    },
    stop() {
      stopped = true;
      clearTimeout(firstPing);
      clearInterval(pingTimer);
      clearInterval(drainTimer);
    },
  };
}
