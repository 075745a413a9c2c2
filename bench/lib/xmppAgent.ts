/**
 * The XMPP-only agent of bench/waiting-guests.ts, in a worker thread of its own: it follows the server's
 * `callOpened` events, joins each guest's room and notes when each OpenCall presence arrives (epoch ms).
 * On the load generator's thread, thousands of guests' websockets and registrations delayed the agent's
 * own event loop, so the baseline's receipt times measured the bench, not ejabberd.
 * With `selfPing` (bench/ejabberd-cluster.ts) it stays in its rooms as the console does when an ejabberd
 * node dies (docs/protocol.md "Self-ping"): every 12 s it pings 4 of its rooms at random, and when one
 * says it is out, every room (16 at a time), joining again each it is out of; an OpenCall that arrives
 * again after that (`again`) says the guest is listed again. It counts the guests' numbered chat
 * messages, and sends its own to every room when the bench says (`{ type: 'chat', seq }`), each twice
 * (bench/lib/benchChat.ts): once as it is, and through the apps' outbox wired as
 * packages/call/src/agent/agentDesk.ts wires it (its own echo, the guest's presence, its own presence back
 * in a room, self-ping's "out of the room", the stream's loss).
 */
import crypto from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import * as XMPP from 'stanza';
import { consoleLogin, consoleXmppToken } from '../../e2e/support/api.ts';
import { benchOutbox, chatBody, parseChat, type ChatKind } from './benchChat.ts';

export interface AgentWorkerData {
  base: string;
  email: string;
  password: string;
  /** its XMPP websocket (default nginx's `/xmpp-websocket`): one ejabberd node's own, to pin it there */
  ws?: string;
  selfPing?: boolean;
}
/** bench → worker: send chat message `seq` to every room joined */
export interface AgentCommand {
  type: 'chat';
  seq: number;
}
/** worker → bench: `ready`; `seen` OpenCalls (call id, epoch ms) in batches; join failures so far */
export type AgentMessage =
  | { type: 'ready'; jid: string }
  | {
      type: 'seen';
      calls: Array<[string, number]>;
      joinFailures: number;
      /** OpenCalls of calls seen before, arrived again (a rejoin), and guests' chat messages */
      again?: Array<[string, number]>;
      chats?: ChatArrival[];
      /** the messages its outbox still keeps */
      outboxPending?: number;
    }
  | { type: 'error'; message: string };

/** a guest's chat message that arrived: room, seq, epoch ms, kind, id */
export type ChatArrival = [string, number, number, ChatKind, string | undefined];

const { base, email, password, ws, selfPing } = workerData as AgentWorkerData;
const WS = ws ?? `${base.replace(/^http/, 'ws')}/xmpp-websocket`;
const PING_EVERY_MS = 12_000;
const PING_ANSWER_MS = 8_000;
const NOT_PLAIN = [
  'SCRAM-SHA-256-PLUS',
  'SCRAM-SHA-256',
  'SCRAM-SHA-1-PLUS',
  'SCRAM-SHA-1',
  'DIGEST-MD5',
  'X-OAUTH2',
  'OAUTHBEARER',
];
const post = (m: AgentMessage) => parentPort!.postMessage(m);

function xmppClient(jid: string, password: string): XMPP.Agent {
  const client = XMPP.createClient({
    jid,
    password,
    resource: 'bench',
    transports: { websocket: WS, bosh: false },
    autoReconnect: false,
    useStreamManagement: false,
  });
  for (const m of NOT_PLAIN) client.sasl.disable(m);
  client.setMaxListeners(0);
  return client;
}

function connect(client: XMPP.Agent, ms = 15000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('connect timeout')), ms);
    client.once('session:started', () => (clearTimeout(timer), resolve()));
    client.once('auth:failed', () => (clearTimeout(timer), reject(new Error('auth failed'))));
    client.once('disconnected', () => (clearTimeout(timer), reject(new Error('disconnected'))));
    client.connect();
  });
}


async function main(): Promise<void> {
  const cookie = await consoleLogin({ email, password });
  const token = await consoleXmppToken(cookie);
  const client = xmppClient(token.jid, token.credential);
  await connect(client);
  const seen = new Set<string>();
  let batch: Array<[string, number]> = [];
  let again: Array<[string, number]> = [];
  let chats: ChatArrival[] = [];
  /** room → the agent's nick there */
  const joined = new Map<string, string>();
  const { outbox, sender } = benchOutbox(
    () => client.sessionStarted,
    (room, id, body) => void client.sendMessage({ to: room, type: 'groupchat', id, body }),
  );
  let pendingPosted = 0;
  let joinFailures = 0;
  const now = () => performance.timeOrigin + performance.now();
  client.on('presence', (p) => {
    const [status, , callId] = (p.status ?? '').split('|');
    if (status !== 'OpenCall' || !callId) return;
    if (!seen.has(callId)) {
      seen.add(callId);
      batch.push([callId, now()]);
    } else if (selfPing) again.push([callId, now()]);
  });
  // a room's presence: our own (we are in it again) and the guest's (the other side), as the console's
  client.on('presence', (p) => {
    const [room, nick] = p.from.split('/') as [string, string | undefined];
    if (!nick || !joined.has(room) || p.type === 'error') return;
    const available = p.type !== 'unavailable';
    if (nick === joined.get(room)) {
      if (available) outbox.joined(room, sender);
    } else outbox.present(room, nick, available, sender);
  });
  client.on('disconnected', () => outbox.streamLost());
  client.on('groupchat', (m) => {
    const [room, nick] = m.from.split('/') as [string, string | undefined];
    if (nick === joined.get(room)) {
      if (m.id && parseChat(m.body ?? '', 'agent')?.kind === 'outbox') outbox.echoed(m.id);
      return;
    }
    const chat = parseChat(m.body ?? '', 'guest');
    if (chat) chats.push([room, chat.seq, now(), chat.kind, m.id]);
  });
  setInterval(() => {
    if (!batch.length && !again.length && !chats.length && outbox.size === pendingPosted) return;
    pendingPosted = outbox.size;
    post({ type: 'seen', calls: batch, joinFailures, ...(selfPing ? { again, chats, outboxPending: outbox.size } : {}) });
    batch = [];
    again = [];
    chats = [];
  }, 50);
  const enter = (room: string, nick: string) =>
    client.joinRoom(room, nick).then(
      (r) => void (r.type === 'error' && joinFailures++),
      () => void joinFailures++,
    );
  const join = (room: string) => {
    if (joined.has(room)) return;
    const nick = `bench-${crypto.randomBytes(3).toString('hex')}`;
    joined.set(room, nick);
    void enter(room, nick);
  };
  /** still an occupant of `room`: a result, or an error of a client that answers no pings (XEP-0410) */
  const stillIn = (room: string): Promise<boolean> =>
    Promise.race([
      client.ping(`${room}/${joined.get(room)}`).then(
        () => true,
        (e: unknown) => /service-unavailable|feature-not-implemented/.test(JSON.stringify(e)),
      ),
      new Promise<boolean>((r) => setTimeout(() => r(false), PING_ANSWER_MS)),
    ]);
  const rejoinLost = async () => {
    const rooms = [...joined.keys()];
    for (let i = 0; i < rooms.length; i += 16) {
      await Promise.all(
        rooms.slice(i, i + 16).map(async (room) => {
          if (await stillIn(room)) return;
          outbox.roomLost(room);
          await enter(room, joined.get(room)!);
        }),
      );
    }
  };
  if (selfPing) {
    setInterval(() => {
      const sample = [...joined.keys()].sort(() => Math.random() - 0.5).slice(0, 4);
      void Promise.all(sample.map(stillIn)).then((answers) => (answers.includes(false) ? rejoinLost() : undefined));
    }, PING_EVERY_MS);
  }
  parentPort!.on('message', (c: AgentCommand) => {
    for (const room of joined.keys()) {
      client.sendMessage({ to: room, type: 'groupchat', body: chatBody('once', 'agent', c.seq) });
      outbox.send(room, { body: chatBody('outbox', 'agent', c.seq) }, sender);
    }
  });
  const res = await fetch(`${base}/api/console/events`, { headers: { cookie } });
  post({ type: 'ready', jid: token.jid });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!block.includes('event: callOpened')) continue;
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (data) join((JSON.parse(data.slice(6)) as { room: string }).room);
    }
  }
}

main().catch((error: unknown) => post({ type: 'error', message: String(error) }));
