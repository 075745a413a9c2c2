/**
 * A light guest (e2e/support/lightGuest.ts) that stays in its room the way the guest app does when an
 * ejabberd node dies (docs/protocol.md "Self-ping"): it pings its own occupant JID every 12 s (8 s to
 * answer) and, found out of the room, joins it again and announces OpenCall; when its stream closes (its
 * node died) it connects again, to the websocket `reconnectTo` names, 1 s later, and joins its room
 * again. And it chats, each numbered message twice (bench/lib/benchChat.ts): once as it is, and through
 * the apps' outbox wired as packages/call/src/guest/guestCall.ts wires it (its own echo, the agent's
 * presence, its own presence back in the room, self-ping's "out of the room", the stream's loss); it
 * counts the agent's messages of each kind, the outbox's one per id.
 * Not the product's engine: bench/ejabberd-cluster.ts measures ejabberd's part of a node's loss with it.
 */
import { joinPresence, openCallPresence, type LightGuest } from '../../e2e/support/lightGuest.ts';
import { RawXmpp } from '../../e2e/support/rawXmpp.ts';
import type { ChatOutbox } from '../../packages/call/src/room/chatOutbox.ts';
import { benchOutbox, chatBody, ChatReceipts, parseChat } from './benchChat.ts';

const PING_EVERY_MS = 12_000;
const PING_ANSWER_MS = 8_000;
const RECONNECT_AFTER_MS = 1_000;

export interface StayingGuest {
  guest: LightGuest;
  /** performance.now() of each rejoin announced (after a self-ping found it out, or a reconnection) */
  rejoinedAt: number[];
  /**
   * sends chat message `seq` to its room once (false: not sent, its stream is down) and through the
   * outbox (kept while the stream is down)
   */
  chat: (seq: number) => boolean;
  /** the agent's messages sent once that arrived (their seq) */
  chatReceived: Set<number>;
  /** the agent's outbox messages that arrived */
  outboxReceived: ChatReceipts;
  outbox: ChatOutbox;
  stop: () => void;
}

/** attribute `name` of a stanza's opening tag (RawXmpp normalises the quotes to ") */
const attr = (xml: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(/^<[^>]*>/.exec(xml)?.[0] ?? '')?.[1];

export function stayInRoom(guest: LightGuest, reconnectTo: () => string): StayingGuest {
  const self = `${guest.room}/${guest.username}`;
  const rejoinedAt: number[] = [];
  const chatReceived = new Set<number>();
  const outboxReceived = new ChatReceipts();
  const { outbox, sender } = benchOutbox(
    () => guest.xmpp.open,
    (room, id, body) => guest.xmpp.send(`<message to="${room}" type="groupchat" id="${id}"><body>${body}</body></message>`),
  );
  let stopped = false;
  let pingId = 0;
  /**
   * Handles what the stream received so far, in order, as the guest app's handlers would (chat, the room's
   * presence), and clears it (an old join's answer left there would answer the next rejoin's wait at once).
   */
  const drain = (xmpp: RawXmpp = guest.xmpp): void => {
    for (const x of xmpp.received.splice(0)) {
      const from = attr(x, 'from') ?? '';
      if (!from.startsWith(`${guest.room}/`)) continue;
      const type = attr(x, 'type');
      if (x.startsWith('<presence')) {
        if (type === 'error') continue;
        // our own presence: we are in the room (again); another's (the agent's): the other side
        if (from === self) {
          if (type !== 'unavailable' && x.includes('code="110"')) outbox.joined(guest.room, sender);
        } else outbox.present(guest.room, from.slice(guest.room.length + 1), type !== 'unavailable', sender);
        continue;
      }
      if (!x.startsWith('<message') || type !== 'groupchat') continue;
      const body = /<body>([^<]*)<\/body>/.exec(x)?.[1] ?? '';
      const id = attr(x, 'id');
      if (from === self) {
        if (id && parseChat(body, 'guest')?.kind === 'outbox') outbox.echoed(id);
        continue;
      }
      const chat = parseChat(body, 'agent');
      if (chat?.kind === 'once') chatReceived.add(chat.seq);
      else if (chat) outboxReceived.receive(chat.seq, id, performance.now());
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
      outbox.streamLost();
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
    if (!stillIn && !stopped && xmpp.open && xmpp === guest.xmpp) {
      outbox.roomLost(guest.room);
      await rejoin(xmpp).catch(() => undefined);
    }
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
    outboxReceived,
    outbox,
    chat(seq) {
      outbox.send(guest.room, { body: chatBody('outbox', 'guest', seq) }, sender);
      if (!guest.xmpp.open) return false;
      guest.xmpp.send(`<message to="${guest.room}" type="groupchat"><body>${chatBody('once', 'guest', seq)}</body></message>`);
      return true;
    },
    stop() {
      stopped = true;
      clearTimeout(firstPing);
      clearInterval(pingTimer);
      clearInterval(drainTimer);
      outbox.clear();
    },
  };
}
