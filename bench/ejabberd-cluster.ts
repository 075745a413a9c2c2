/**
 * ejabberd: two nodes in one cluster against one node, in the same run, alternating rounds (docs/operations.md
 * "ejabberd nodes", docs/performance.md "Past one machine, part 2"). The stack runs two nodes
 * (LOBBY_EJABBERD_NODES=2, scripts/lib/ejabberd-cluster.sh); a one-node round stops node 2 first (the
 * server's API list still names it: a node that refuses is asked last, docs/operations.md), a two-node round
 * starts it (it joins node 1's cluster: `join_cluster`'s time, as start_ejabberd_node prints it).
 * Each round, as bench/waiting-guests.ts does it: N light guests (e2e/support/lightGuest.ts) register,
 * open their calls and wait in their rooms, their streams on node 1 and node 2 in turn (one-node rounds:
 * all on node 1), while the XMPP-only agent (bench/lib/xmppAgent.ts, its stream on node 1) follows the
 * server's events and joins each room. Measured: failures, the agent's time to list everyone after the
 * last arrival and the fan-out p50/p95 (guest sent → agent received), the rooms each node holds (its own
 * table, `lobby_room_guests`), and each node's RSS (VmRSS of its beam process) before and after, ÷ N.
 * Then chat: every second each guest sends a numbered groupchat message to its room and the agent one to
 * every room (bench/lib/stayingGuest.ts, xmppAgent.ts), guests and agent staying in their rooms as the
 * apps do (self-ping, docs/protocol.md "Self-ping"; a guest whose stream closed connects again to node 1).
 * In a two-node round node 2 is killed (SIGKILL) 3 s into the chat: the time from the kill until every
 * guest is listed again (in its room with the agent, as ejabberd's API says, and, for a guest whose room
 * or stream was on node 2, its OpenCall arrived at the agent again), per case (its room on the dead node;
 * its stream; both); then 3 s more of chat. A one-node round chats as long with nothing killed (the
 * baseline: what the counting loses without a fault, 0 expected). Each message goes two ways side by side
 * (bench/lib/benchChat.ts): sent once (`sent`, `lost`: sent and never received; a guest's message while its
 * stream is down is not sent at all, `notSentStreamDown`): what ejabberd alone delivers; and through the
 * apps' outbox (`outbox`: packages/call/src/room/chatOutbox.ts, wired as the apps wire it, docs/protocol.md
 * "Chat delivery"): the product's loss. After the chat the bench waits up to 20 s for the outboxes to
 * empty; of the outbox's messages it counts those never received, the arrivals dropped as duplicates (an
 * id received before), those a reader would see twice (a seq under two ids, 0 expected), the latency, the
 * late ones (over 2 s) and when the last late one arrived after the kill (the time to recover), what the
 * outboxes still kept at the end, and each lost message's guest, case and seq. The kill's `neither` case
 * (room and stream on node 1) is the first answer of ejabberd's API after the kill.
 * One JSON line per round on stdout, a summary with the ratios (two nodes / one node) on stderr. Budget
 * (exit 1): every guest waits and is listed, every guest is listed again within 30 s of the kill, and no
 * message through the outbox is lost (the goal, docs/performance.md "Chat during the loss").
 *
 *   LOBBY_EJABBERD_NODES=2 LOBBY_REGISTER_RATE_LIMIT=100000 ./scripts/start --detach
 *   LOBBY_EJABBERD_NODES=2 ./scripts/bench ejabberd-cluster.ts [guests=20] [--rounds 2] [--in-flight 10]
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), EJABBERD_API_URL (every node's, comma-separated:
 * scripts/lib/ejabberd-cluster.sh sets it), EJABBERD_WS_PORT, DEMO_AGENT_PASSWORD and DEMO_ADMIN_PASSWORD
 * (./scripts/bench reads them), LOBBY_RUN_DIR (the stack's, for its scripts). Leaves node 2 running.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { BASE_URL as BASE } from '../e2e/support/api.ts';
import { lightGuestLeaves, lightGuestsTry, type LightGuest } from '../e2e/support/lightGuest.ts';
import { roomGuestsOn } from '../e2e/support/roomGuests.ts';
import { roomOccupants } from '../e2e/support/stack.ts';
import { adminApi } from '../e2e/tests/routing-support.ts';
import { stackScript } from '../e2e/scale/instances.ts';
import { killNode, nodeWebsocket, startNodes, type Node } from '../e2e/scale/ejabberdNodes.ts';
import type { AgentCommand, AgentMessage, AgentWorkerData } from './lib/xmppAgent.ts';
import { stayInRoom, type StayingGuest } from './lib/stayingGuest.ts';
import { ChatReceipts } from './lib/benchChat.ts';
import { load, pct, sleep } from './lib/stats.ts';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '2' },
    'in-flight': { type: 'string', default: '10' },
  },
});
const N = Number(positionals[0] ?? 20);
const ROUNDS = Number(opts.rounds);
const IN_FLIGHT = Number(opts['in-flight']);
const CHAT_BEFORE_KILL_MS = 3000;
const CHAT_AFTER_BACK_MS = 3000;
/** a one-node round chats as long as the last two-node round's chat lasted (20 s before any) */
let baselineChatMs = 20_000;
const BACK_LIMIT_MS = 60_000;
const BACK_BUDGET_MS = 30_000;
/** after the chat, how long the outboxes may take to empty */
const OUTBOX_DRAIN_LIMIT_MS = 20_000;
/** an outbox message that arrived later than this after its sending was late (kept, sent again) */
const LATE_MS = 2000;
const PASSWORD = process.env.DEMO_AGENT_PASSWORD;
if (!PASSWORD) throw new Error('DEMO_AGENT_PASSWORD is not set (./scripts/bench reads the stack secrets)');
const API_URLS = (process.env.EJABBERD_API_URL ?? '').split(',').filter(Boolean);
if (API_URLS.length !== 2) throw new Error(`EJABBERD_API_URL must name two nodes' APIs (LOBBY_EJABBERD_NODES=2), not '${process.env.EJABBERD_API_URL ?? ''}'`);
const MUC = process.env.XMPP_MUC_DOMAIN ?? 'conference.lobby.local';
const GUEST_HOST = process.env.XMPP_GUEST_DOMAIN ?? 'guest.lobby.local';

type Mode = 'one' | 'two';

/** VmRSS (kB) of node `i`'s beam process, null when it does not run. */
async function rssKb(i: Node): Promise<number | null> {
  const pid = (await stackScript(`lobby_on_ej_node ${i} lobby_pid ${i === 1 ? 'ejabberd' : `ejabberd-${i}`}`).catch(() => '')).trim();
  if (!pid) return null;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** The node holding each room (local name) that has a guest in it, as each node's own table says. */
async function roomsByNode(): Promise<Map<string, Node>> {
  const out = new Map<string, Node>();
  for (const i of [1, 2] as const) {
    for (const g of (await roomGuestsOn(API_URLS[i - 1] ?? '', MUC, GUEST_HOST)) ?? []) out.set(g.room, i);
  }
  return out;
}

interface Agent {
  jid: string;
  seen: Map<string, number>;
  /** call id → performance.now() of each OpenCall that arrived again */
  again: Map<string, number[]>;
  /** room (JID) → chat seqs received from its guest, sent once */
  chats: Map<string, Set<number>>;
  /** room (JID) → its guest's outbox messages received */
  outboxChats: Map<string, ChatReceipts>;
  /** the messages its outbox still keeps */
  outboxPending: () => number;
  chat: (seq: number) => void;
  close: () => Promise<number>;
}

async function startAgent(): Promise<Agent> {
  const worker = new Worker(new URL('./lib/xmppAgent.ts', import.meta.url), {
    workerData: { base: BASE, email: 'agent@demo.lobby', password: PASSWORD!, ws: nodeWebsocket(1), selfPing: true } satisfies AgentWorkerData,
  });
  const seen = new Map<string, number>();
  const again = new Map<string, number[]>();
  const chats = new Map<string, Set<number>>();
  const outboxChats = new Map<string, ChatReceipts>();
  let outboxPending = 0;
  const jid = await new Promise<string>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: AgentMessage) => {
      if (m.type === 'ready') resolve(m.jid.split('/')[0]!);
      else if (m.type === 'error') reject(new Error(`XMPP agent: ${m.message}`));
      else {
        for (const [callId, at] of m.calls) seen.set(callId, at - performance.timeOrigin);
        for (const [callId, at] of m.again ?? []) again.set(callId, [...(again.get(callId) ?? []), at - performance.timeOrigin]);
        for (const [room, seq, at, kind, id] of m.chats ?? []) {
          if (kind === 'once') chats.set(room, (chats.get(room) ?? new Set()).add(seq));
          else {
            if (!outboxChats.has(room)) outboxChats.set(room, new ChatReceipts());
            outboxChats.get(room)!.receive(seq, id, at - performance.timeOrigin);
          }
        }
        if (m.outboxPending !== undefined) outboxPending = m.outboxPending;
      }
    });
  });
  return {
    jid,
    seen,
    again,
    chats,
    outboxChats,
    outboxPending: () => outboxPending,
    chat: (seq) => worker.postMessage({ type: 'chat', seq } satisfies AgentCommand),
    close: () => worker.terminate(),
  };
}

/** Sets the round's mode: node 2 stopped (one), or started and joined (two): the start's output. */
async function setMode(mode: Mode): Promise<{ joinMs: number | null; startMs: number }> {
  const t0 = performance.now();
  if (mode === 'one') {
    await stackScript('lobby_on_ej_node 2 lobby_kill ejabberd-2');
    return { joinMs: null, startMs: Math.round(performance.now() - t0) };
  }
  const out = await startNodes();
  const startMs = Math.round(performance.now() - t0);
  const joined = /ejabberd-2: joined \S+ in (\d+) ms/.exec(out);
  // the server asks a node that refused last for 10 s: past that, rooms spread over both again
  await sleep(11_000);
  return { joinMs: joined ? Number(joined[1]) : null, startMs };
}

type Case = 'none' | 'room' | 'stream' | 'both';
interface CaseFigures {
  guests: number;
  back: number;
  p50Ms: number | null;
  maxMs: number | null;
}
interface KillFigures {
  /** the chat seq sent last before the kill */
  killSeq: number;
  /** from the kill until every guest was listed again (null: not all within the limit) */
  allBackMs: number | null;
  back: number;
  cases: Record<'roomOnDeadNode' | 'streamOnDeadNode' | 'bothOnDeadNode' | 'neither', CaseFigures>;
  guestRejoins: number;
}

async function round(mode: Mode, r: number) {
  const setup = await setMode(mode);
  const rssBefore = { 1: await rssKb(1), 2: await rssKb(2) };
  const agent = await startAgent();
  const streamNode = (k: number): Node => (mode === 'two' ? ((1 + (k % 2)) as Node) : 1);
  const t0 = performance.now();
  const { ok: guests, failed } = await lightGuestsTry(N, IN_FLIGHT, 18, (k) => nodeWebsocket(streamNode(k)));
  const arrivedMs = Math.round(performance.now() - t0);
  // the node of each guest's stream: the websocket it connected to (node I listens on 127.0.0.I)
  const nodeOfStream = new Map(guests.map((g) => [g.callId, g.wsUrl.includes('//127.0.0.2:') ? 2 : 1]));
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && !guests.every((g) => agent.seen.has(g.callId))) await sleep(100);
  const listed = guests.filter((g) => agent.seen.has(g.callId)).length;
  const lastSent = Math.max(...guests.map((g) => g.sentAt));
  const listsAllMs = listed === guests.length ? Math.round(Math.max(0, Math.max(...guests.map((g) => agent.seen.get(g.callId)!)) - lastSent)) : null;
  const fanout = guests.filter((g) => agent.seen.has(g.callId)).map((g) => agent.seen.get(g.callId)! - g.sentAt);
  const roomNode = await roomsByNode();
  const roomsPerNode = { 1: 0, 2: 0 };
  for (const g of guests) {
    const i = roomNode.get(g.room.split('@')[0]!);
    if (i) roomsPerNode[i]++;
  }
  const rssAfter = { 1: await rssKb(1), 2: await rssKb(2) };
  const perGuest = (i: Node) => {
    const [a, b] = [rssBefore[i], rssAfter[i]];
    return a !== null && b !== null && guests.length ? Math.round(((b - a) / guests.length) * 10) / 10 : null;
  };

  // chat, and in a two-node round node 2's kill
  const staying: StayingGuest[] = guests.map((g) => stayInRoom(g, () => nodeWebsocket(1)));
  const sent = new Map<string, number[]>(guests.map((g) => [g.callId, []]));
  const agentSent: number[] = [];
  /** seq → performance.now() of its sending (guests' and agent's alike) */
  const sentAt = new Map<number, number>();
  let seq = 0;
  // sent once: a guest's message while its stream is down is not sent (its outbox keeps it for the join)
  let unsent = 0;
  const chatTimer = setInterval(() => {
    seq++;
    sentAt.set(seq, performance.now());
    for (const s of staying) {
      if (s.chat(seq)) sent.get(s.guest.callId)!.push(seq);
      else unsent++;
    }
    agent.chat(seq);
    agentSent.push(seq);
  }, 1000);
  const chatStart = performance.now();
  let kill: KillFigures | null = null;
  let killedAt: number | null = null;
  const caseOf = (g: LightGuest): Case => {
    if (mode === 'one') return 'none';
    const room = roomNode.get(g.room.split('@')[0]!) === 2;
    const stream = nodeOfStream.get(g.callId) === 2;
    return room && stream ? 'both' : room ? 'room' : stream ? 'stream' : 'none';
  };
  if (mode === 'two') {
    await sleep(CHAT_BEFORE_KILL_MS);
    killedAt = performance.now();
    const killSeq = seq;
    await killNode(2);
    const backAt = new Map<string, number>();
    while (performance.now() - killedAt < BACK_LIMIT_MS && backAt.size < guests.length) {
      await Promise.all(
        guests
          .filter((g) => !backAt.has(g.callId))
          .map(async (g) => {
            const occupants = (await roomOccupants(g.room)).map((j) => j.split('/')[0]);
            const inRoom = occupants.includes(agent.jid) && occupants.includes(g.jid.split('/')[0]);
            const announced = caseOf(g) === 'none' || (agent.again.get(g.callId) ?? []).some((t) => t > killedAt!);
            if (inRoom && announced) backAt.set(g.callId, performance.now() - killedAt!);
          }),
      );
      await sleep(250);
    }
    const byCase = (c: Case): CaseFigures => {
      const xs = guests.filter((g) => caseOf(g) === c);
      const ms = xs.map((g) => backAt.get(g.callId)).filter((x): x is number => x !== undefined);
      return { guests: xs.length, back: ms.length, p50Ms: pct(ms, 50), maxMs: pct(ms, 100) };
    };
    const all = [...backAt.values()];
    kill = {
      killSeq,
      allBackMs: backAt.size === guests.length ? pct(all, 100) : null,
      back: backAt.size,
      cases: { roomOnDeadNode: byCase('room'), streamOnDeadNode: byCase('stream'), bothOnDeadNode: byCase('both'), neither: byCase('none') },
      guestRejoins: staying.reduce((n, s) => n + s.rejoinedAt.filter((t) => t > killedAt!).length, 0),
    };
    await sleep(CHAT_AFTER_BACK_MS);
    baselineChatMs = Math.round(performance.now() - chatStart);
  } else {
    await sleep(baselineChatMs);
  }
  clearInterval(chatTimer);
  const chatEnd = performance.now();
  await sleep(3000); // the last messages on their way
  const pending = () => agent.outboxPending() + staying.reduce((n, s) => n + s.outbox.size, 0);
  while (performance.now() - chatEnd < OUTBOX_DRAIN_LIMIT_MS && pending() > 0) await sleep(250);
  await sleep(500); // what the last echo confirmed, on its way to the agent's thread
  const toAgentSent = [...sent.values()].reduce((n, xs) => n + xs.length, 0);
  const toAgentLost = guests.reduce((n, g) => n + sent.get(g.callId)!.filter((s) => !agent.chats.get(g.room)?.has(s)).length, 0);
  const toGuestsSent = agentSent.length * staying.length;
  const toGuestsLost = staying.reduce((n, s) => n + agentSent.filter((x) => !s.chatReceived.has(x)).length, 0);
  // the outbox's messages: every seq of every guest (kept while its stream is down), the agent's to every room
  const outbox = (dir: 'toAgent' | 'toGuests', pendingAtEnd: number) => {
    const late: number[] = [];
    const latency: number[] = [];
    const lostDetail: Array<{ callId: string; case: Case; seq: number }> = [];
    let sentN = 0;
    let duplicates = 0;
    let shownTwice = 0;
    for (const s of staying) {
      const receipts = dir === 'toAgent' ? agent.outboxChats.get(s.guest.room) : s.outboxReceived;
      duplicates += receipts?.duplicates ?? 0;
      shownTwice += receipts?.shownTwice ?? 0;
      for (const x of dir === 'toAgent' ? [...sentAt.keys()] : agentSent) {
        sentN++;
        const at = receipts?.first.get(x);
        if (at === undefined) lostDetail.push({ callId: s.guest.callId, case: caseOf(s.guest), seq: x });
        else {
          latency.push(at - sentAt.get(x)!);
          if (at - sentAt.get(x)! > LATE_MS) late.push(at);
        }
      }
    }
    return {
      sent: sentN,
      lost: lostDetail.length,
      duplicates,
      shownTwice,
      latencyMs: { p50: pct(latency, 50), p99: pct(latency, 99), max: pct(latency, 100) },
      late: late.length,
      lastLateAfterKillMs: killedAt !== null && late.length ? Math.round(Math.max(...late) - killedAt) : null,
      pendingAtEnd,
      lostDetail: lostDetail.slice(0, 40),
    };
  };
  const chat = {
    seconds: Math.round((chatEnd - chatStart) / 1000),
    guestsToAgent: {
      sent: toAgentSent,
      lost: toAgentLost,
      notSentStreamDown: unsent,
      outbox: outbox('toAgent', staying.reduce((n, s) => n + s.outbox.size, 0)),
    },
    agentToGuests: { sent: toGuestsSent, lost: toGuestsLost, outbox: outbox('toGuests', agent.outboxPending()) },
  };
  for (const s of staying) s.stop();
  await Promise.all(guests.map((g) => lightGuestLeaves(g)));
  await agent.close();
  return {
    date: new Date().toISOString(),
    load: load(),
    round: r,
    mode,
    n: N,
    failed: failed.length,
    failures: [...new Set(failed)].slice(0, 2),
    ...setup,
    arrivedMs,
    listed,
    listsAllMs,
    fanoutMs: { p50: pct(fanout, 50), p95: pct(fanout, 95), max: pct(fanout, 100) },
    roomsPerNode,
    rssKb: { before: rssBefore, after: rssAfter, perGuest: { 1: perGuest(1), 2: perGuest(2) } },
    chat,
    kill,
  };
}

// every guest calls from this machine's one address: the company's cap per address is lifted meanwhile
const { maxOpenCallsPerAddress } = await adminApi<{ maxOpenCallsPerAddress: number }>('GET', '/admin/company');
await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress: 0 });
const rows: Awaited<ReturnType<typeof round>>[] = [];
try {
  for (let r = 1; r <= ROUNDS; r++) {
    for (const mode of ['one', 'two'] as const) {
      const row = await round(mode, r);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress });
  await startNodes().catch(() => undefined);
}
const of = (mode: Mode) => rows.filter((x) => x.mode === mode);
const med = (xs: Array<number | null>) => pct(xs.filter((x): x is number => x !== null), 50);
const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((a / Math.max(b, 1)) * 100) / 100);
const rssPerGuest = (mode: Mode) => med(of(mode).map((x) => (x.rssKb.perGuest[1] ?? 0) + (mode === 'two' ? (x.rssKb.perGuest[2] ?? 0) : 0)));
const summary = {
  listsAllMs: { one: med(of('one').map((x) => x.listsAllMs)), two: med(of('two').map((x) => x.listsAllMs)) },
  fanoutP50Ms: { one: med(of('one').map((x) => x.fanoutMs.p50)), two: med(of('two').map((x) => x.fanoutMs.p50)) },
  rssPerGuestKb: { one: rssPerGuest('one'), two: rssPerGuest('two') },
  joinMs: of('two').map((x) => x.joinMs),
  allBackMs: of('two').map((x) => x.kill?.allBackMs ?? null),
  chatLost: rows.map((x) => {
    const { guestsToAgent: up, agentToGuests: down } = x.chat;
    return (
      `${x.mode}: sent once ${up.lost}/${up.sent} to agent, ${down.lost}/${down.sent} to guests; ` +
      `outbox ${up.outbox.lost}/${up.outbox.sent} to agent, ${down.outbox.lost}/${down.outbox.sent} to guests ` +
      `(duplicates dropped ${up.outbox.duplicates} + ${down.outbox.duplicates}, recovered ${up.outbox.lastLateAfterKillMs ?? '-'} / ${down.outbox.lastLateAfterKillMs ?? '-'} ms after the kill)`
    );
  }),
};
console.error(
  `ejabberd, ${N} guests, ${ROUNDS} rounds each: lists all ${summary.listsAllMs.two} / ${summary.listsAllMs.one} ms (two / one = ${ratio(summary.listsAllMs.two, summary.listsAllMs.one)}), ` +
    `fan-out p50 ${summary.fanoutP50Ms.two} / ${summary.fanoutP50Ms.one} ms (${ratio(summary.fanoutP50Ms.two, summary.fanoutP50Ms.one)}), ` +
    `RSS per guest, all nodes ${summary.rssPerGuestKb.two} / ${summary.rssPerGuestKb.one} kB; join_cluster ${summary.joinMs.join(', ')} ms; ` +
    `node 2 killed: everyone listed again ${summary.allBackMs.join(', ')} ms after; chat lost: ${summary.chatLost.join(' | ')}`,
);
const missed = rows.some(
  (x) =>
    x.failed > 0 ||
    x.listed < N ||
    (x.mode === 'two' && (x.kill?.allBackMs ?? Infinity) > BACK_BUDGET_MS) ||
    x.chat.guestsToAgent.outbox.lost + x.chat.agentToGuests.outbox.lost > 0,
);
process.exit(missed ? 1 : 0);
