/**
 * The XMPP-only agent of bench/waiting-guests.ts, in a worker thread of its own: it follows the server's
 * `callOpened` events, joins each guest's room and notes when each OpenCall presence arrives (epoch ms).
 * On the load generator's thread, thousands of guests' websockets and registrations delayed the agent's
 * own event loop, so the baseline's receipt times measured the bench, not ejabberd.
 */
import crypto from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import * as XMPP from 'stanza';
import { consoleLogin, consoleXmppToken } from '../../e2e/support/api.ts';

export interface AgentWorkerData {
  base: string;
  email: string;
  password: string;
}
/** worker → bench: `ready`; `seen` OpenCalls (call id, epoch ms) in batches; join failures so far */
export type AgentMessage =
  | { type: 'ready' }
  | { type: 'seen'; calls: Array<[string, number]>; joinFailures: number }
  | { type: 'error'; message: string };

const { base, email, password } = workerData as AgentWorkerData;
const WS = `${base.replace(/^http/, 'ws')}/xmpp-websocket`;
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
  let joinFailures = 0;
  client.on('presence', (p) => {
    const [status, , callId] = (p.status ?? '').split('|');
    if (status === 'OpenCall' && callId && !seen.has(callId)) {
      seen.add(callId);
      batch.push([callId, performance.timeOrigin + performance.now()]);
    }
  });
  setInterval(() => {
    if (!batch.length) return;
    post({ type: 'seen', calls: batch, joinFailures });
    batch = [];
  }, 50);
  const joined = new Set<string>();
  const join = (room: string) => {
    if (joined.has(room)) return;
    joined.add(room);
    client.joinRoom(room, `bench-${crypto.randomBytes(3).toString('hex')}`).then(
      (r) => void (r.type === 'error' && joinFailures++),
      () => void joinFailures++,
    );
  };
  const res = await fetch(`${base}/api/console/events`, { headers: { cookie } });
  post({ type: 'ready' });
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
