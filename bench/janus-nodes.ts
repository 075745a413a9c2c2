/**
 * Janus nodes (docs/operations.md "Several Janus nodes", docs/performance.md "Past one machine, part 2"),
 * on a stack with two local Janus nodes (LOBBY_JANUS_LOCAL_NODES=2, scripts/lib/stack.sh):
 *
 * 1. Placement: N calls opened and their rooms placed through the server's real API as a guest's app does
 *    it (register, call-report/add, then the guest's media grant, POST /api/call-report/media, which
 *    places the room), one at a time and in bursts of BURST at once, alternating batches; the rooms each
 *    node got (the rooms' rows, `media_rooms.janus_node`) against the ideal even split. Each batch's calls
 *    end before the next (the guest's hang-up).
 * 2. A node lost mid-call against a lone Janus restarted, alternating rounds: a guest (Chromium) calls, the
 *    agent (Chromium, the console) answers, both decode frames; then
 *      - two nodes: the call's node is killed (SIGKILL) and stays down: the call moves to the other node
 *        (docs/protocol.md "Media session lost");
 *      - the baseline, one node: the stack's server and gate restarted with Janus alone (janus-2 stopped,
 *        LOBBY_JANUS_LOCAL_NODES=1), Janus killed and started again 5 s later (the fault journey's path,
 *        e2e/tests/fault-janus.spec.ts);
 *    the time from the kill until each side decodes frames again (e2e/support/media.ts watchFrames, started before the kill),
 *    then the agent hangs up and what was killed is started again. Each mode switch restarts the server
 *    and the gate with the scripts' own functions.
 * One JSON line per batch and per round on stdout, a summary (p50 / max per side, move / restart) on
 * stderr. Budget (exit 1): frames back at both sides within 30 s of a node's kill in every round, and no
 * batch's split further from even than its burst allows (one room, or the burst's size for a burst).
 *
 *   LOBBY_JANUS_LOCAL_NODES=2 LOBBY_REGISTER_RATE_LIMIT=100000 ./scripts/start --detach
 *   LOBBY_JANUS_LOCAL_NODES=2 ./scripts/bench janus-nodes.ts [placements=20] [--burst 5] [--rounds 2] [--no-kill] [--move-only] [--trace]
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), LOBBY_DATA_DIR or DATABASE_URL (the rooms' rows),
 * DEMO_AGENT_PASSWORD and DEMO_ADMIN_PASSWORD (./scripts/bench reads them), LOBBY_RUN_DIR (the stack's).
 * Leaves the stack with both nodes.
 */
import { parseArgs } from 'node:util';
import { addReport, BASE_URL, DEMO_AGENT, registerGuest } from '../e2e/support/api.ts';
import { launchParticipant, type LaunchedBrowser } from '../e2e/support/browser.ts';
import { queryRows } from '../e2e/support/db.ts';
import { framesBackAt, watchFrames } from '../e2e/support/media.ts';
import { keptConsole } from '../e2e/support/journey.ts';
import { killServer } from '../e2e/support/stack.ts';
import { guestCalls } from '../e2e/tests/incall-support.ts';
import { adminApi } from '../e2e/tests/routing-support.ts';
import { stackScript } from '../e2e/scale/instances.ts';
import { nodeOfCall } from '../e2e/scale/janusNodes.ts';
import { load, pct, sleep } from './lib/stats.ts';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    burst: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    'no-kill': { type: 'boolean', default: false },
    /** only the node-lost rounds (no lone-restart baseline) */
    'move-only': { type: 'boolean', default: false },
    /** every round's kept console of both sides after the kill on stderr, not only a failed round's */
    trace: { type: 'boolean', default: false },
  },
});
const PLACEMENTS = Number(positionals[0] ?? 20);
const BURST = Number(opts.burst);
const ROUNDS = Number(opts.rounds);
const BACK_BUDGET_MS = 30_000;
let overBudget = false;

// ------------------------------------------------------------------------------------------- placement
interface Placed {
  callId: string;
  token: string;
}

/** A guest opens a call and asks its media grant, as the guest app does before an agent answers. */
async function place(): Promise<Placed> {
  const reg = await registerGuest();
  const callId = `${reg.username}--bench`;
  await addReport(reg.access_token, { call_id: callId, company: 18, source: 'site' });
  const res = await fetch(`${BASE_URL}/api/call-report/media`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reg.access_token}` },
    body: JSON.stringify({ call_id: callId }),
  });
  if (!res.ok) throw new Error(`media grant: ${res.status} ${await res.text()}`);
  return { callId, token: reg.access_token };
}

async function hangUp(p: Placed): Promise<void> {
  await fetch(`${BASE_URL}/api/call-report/update-timestamp`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
    body: JSON.stringify({ call_id: p.callId, guest_exit_timestamp: true, call_ended_timestamp: true }),
  });
}

/** The serving nodes' open rooms before a batch must be even for the batch's split to be its own. */
async function openRoomsPerNode(): Promise<Record<string, number>> {
  const rows = await queryRows<{ janus_node: string | null; rooms: number | string }>(
    'select janus_node, count(*) as rooms from media_rooms where destroyed_at is null group by janus_node',
  );
  return Object.fromEntries(rows.map((r) => [r.janus_node ?? '?', Number(r.rooms)]));
}

async function placementBatch(burst: number, batch: number) {
  const openBefore = await openRoomsPerNode();
  const placed: Placed[] = [];
  const t0 = performance.now();
  for (let i = 0; i < PLACEMENTS; i += burst) {
    placed.push(...(await Promise.all(Array.from({ length: Math.min(burst, PLACEMENTS - i) }, place))));
  }
  const ms = Math.round(performance.now() - t0);
  const perNode: Record<string, number> = {};
  for (const p of placed) {
    const node = (await nodeOfCall(p.callId)) ?? '?';
    perNode[node] = (perNode[node] ?? 0) + 1;
  }
  await Promise.all(placed.map(hangUp));
  const counts = ['janus-1', 'janus-2'].map((n) => perNode[n] ?? 0);
  const offEven = Math.abs(counts[0]! - counts[1]!) - (PLACEMENTS % 2);
  // one at a time the split is even within one room; a burst's grants race: the same node's count is read
  // by each of them, so up to the burst's size may land on one node
  if (offEven > Math.max(1, burst === 1 ? 0 : burst)) overBudget = true;
  return { date: new Date().toISOString(), load: load(), batch, burst, placements: PLACEMENTS, ms, openBefore, perNode, ideal: PLACEMENTS / 2, offEven };
}

// ------------------------------------------------------------------------------------------------ kill
type Mode = 'move' | 'restart';

/** Restarts the server and the gate with one Janus (janus-2 stopped) or both nodes; what was killed runs again. */
async function stackWith(nodes: 1 | 2): Promise<void> {
  const env = `LOBBY_JANUS_LOCAL_NODES=${nodes} LOBBY_SEED_DEMO=1`;
  const stopSecond = nodes === 1 ? 'lobby_kill janus-2 >/dev/null;' : '';
  await stackScript(`export ${env}; unset LOBBY_JANUS_NODES; stop_server >/dev/null; stop_gate >/dev/null; ${stopSecond} start_janus >/dev/null && start_gate >/dev/null && start_server >/dev/null`);
}

/** Until every node the server knows is serving (its health check: every 5 s). */
async function nodesServing(names: string[]): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const rows = await queryRows<{ name: string; state: string }>('select name, state from janus_nodes');
    if (names.every((n) => rows.some((r) => r.name === n && r.state === 'serving'))) return;
    await sleep(500);
  }
  throw new Error(`Janus nodes ${names.join(', ')} not serving after 60 s`);
}

async function answeredCall(): Promise<{ agent: LaunchedBrowser; guest: LaunchedBrowser; callId: string }> {
  // a stack started with the README's command shows automated browsers the bot screen (bench/support/bareJanus.ts)
  const extraArgs = ['--disable-blink-features=AutomationControlled'];
  const agent = await launchParticipant('bench-agent', { extraArgs });
  const guest = await launchParticipant('bench-guest', { viewport: { width: 1024, height: 768 }, extraArgs });
  const page = agent.page;
  await page.goto('/console/');
  await page.getByTestId('login-email').fill(DEMO_AGENT.email);
  await page.getByTestId('login-password').fill(DEMO_AGENT.password);
  await page.getByTestId('login-submit').click();
  await page.locator('[data-screen="workspace"]').waitFor({ timeout: 60_000 });
  await guestCalls(guest.page);
  const item = page.getByTestId('queue-item').first();
  await item.waitFor({ timeout: 60_000 });
  const callId = (await item.getAttribute('data-call-id')) ?? '';
  await item.getByTestId('answer-button').click();
  await guest.page.locator('[data-screen="ongoing"]').waitFor({ timeout: 60_000 });
  await Promise.all([framesBackAt(guest.page, 'guest', 60_000), framesBackAt(agent.page, 'agent', 60_000)]);
  return { agent, guest, callId };
}

async function killRound(mode: Mode, r: number) {
  const { agent, guest, callId } = await answeredCall();
  try {
    const node = (await nodeOfCall(callId)) ?? 'janus-1';
    const name = node === 'janus-2' ? 'janus-2' : 'janus';
    await sleep(2000); // media settled both ways
    // watched from before the kill (a move can be over before the kill's command returns); only a stop at
    // or after the kill counts (framesBackAfter): on a loaded machine frames pause before a kill too
    const guestWatch = watchFrames(guest.page, 'guest');
    const agentWatch = watchFrames(agent.page, 'agent');
    // from the signal itself, not from asking for it (the script's start is not the outage)
    const killedAt = await killServer(name);
    const back = Promise.all([guestWatch.backAfter(killedAt, 60_000), agentWatch.backAfter(killedAt, 60_000)]);
    let janusAnswersMs: number | null = null;
    if (mode === 'restart') {
      await sleep(5000);
      await stackScript('start_janus >/dev/null');
      janusAnswersMs = Date.now() - killedAt;
    }
    let failure: string | null = null;
    // what each side's engine kept (docs/operations.md §13), with its time from the kill, on stderr
    const printKept = async () => {
      for (const [page, who] of [[guest.page, 'guest'], [agent.page, 'agent']] as const) {
        const kept = await keptConsole(page);
        console.error(`---- round ${r} (${mode}): ${who}'s kept console after the kill\n${kept.filter((e) => e.at >= killedAt - 1000).map((e) => `+${((e.at - killedAt) / 1000).toFixed(2)} s ${e.level} ${e.text}`).join('\n')}`);
      }
    };
    const [guestAt, agentAt] = await back.catch(async (error: unknown) => {
      failure = String(error);
      await printKept();
      return [null, null] as const;
    });
    if (opts.trace && failure === null) {
      console.error(`---- round ${r} (${mode}): frames back at the guest +${((guestAt ?? 0) - killedAt) / 1000} s, at the agent +${((agentAt ?? 0) - killedAt) / 1000} s`);
      await printKept();
    }
    const guestMs = guestAt === null ? null : Math.round(guestAt - killedAt);
    const agentMs = agentAt === null ? null : Math.round(agentAt - killedAt);
    const movedTo = await nodeOfCall(callId);
    if (mode === 'move' && (guestMs === null || agentMs === null || Math.max(guestMs, agentMs) > BACK_BUDGET_MS)) overBudget = true;
    await agent.page.getByTestId('agent-hangup-button').click({ timeout: 10_000 }).catch(() => undefined);
    const afterAnswer = (ms: number | null) => (ms === null || janusAnswersMs === null ? null : ms - janusAnswersMs);
    return {
      date: new Date().toISOString(),
      load: load(),
      round: r,
      mode,
      killed: node,
      movedTo,
      janusAnswersMs,
      framesBackMs: { guest: guestMs, agent: agentMs },
      failure,
      // the baseline's: from Janus answering again (start_janus returned) to frames
      framesAfterJanusAnswersMs: { guest: afterAnswer(guestMs), agent: afterAnswer(agentMs) },
    };
  } finally {
    await agent.close();
    await guest.close();
    // what was killed runs again (start_janus starts every node of the mode that does not run)
    await stackScript(`LOBBY_JANUS_LOCAL_NODES=${mode === 'move' ? 2 : 1} start_janus >/dev/null`);
  }
}

// --------------------------------------------------------------------------------------------------- run
const { maxOpenCallsPerAddress } = await adminApi<{ maxOpenCallsPerAddress: number }>('GET', '/admin/company');
await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress: 0 });
const batches = [];
const kills: Awaited<ReturnType<typeof killRound>>[] = [];
try {
  await nodesServing(['janus-1', 'janus-2']);
  for (let b = 1; b <= 2; b++) {
    for (const burst of [1, BURST]) {
      const row = await placementBatch(burst, b);
      batches.push(row);
      console.log(JSON.stringify(row));
    }
  }
  if (!opts['no-kill']) {
    for (let r = 1; r <= ROUNDS; r++) {
      for (const mode of opts['move-only'] ? (['move'] as const) : (['move', 'restart'] as const)) {
        await stackWith(mode === 'move' ? 2 : 1);
        await nodesServing(mode === 'move' ? ['janus-1', 'janus-2'] : ['janus-1']);
        const row = await killRound(mode, r);
        kills.push(row);
        console.log(JSON.stringify(row));
      }
    }
  }
} finally {
  await adminApi('PUT', '/admin/company', { maxOpenCallsPerAddress }).catch(() => undefined);
  if (!opts['no-kill']) await stackWith(2);
}
const side = (mode: Mode, who: 'guest' | 'agent') => kills.filter((k) => k.mode === mode).map((k) => k.framesBackMs[who]).filter((x): x is number => x !== null);
const fig = (mode: Mode) => `guest ${pct(side(mode, 'guest'), 50)} / ${pct(side(mode, 'guest'), 100)} ms, agent ${pct(side(mode, 'agent'), 50)} / ${pct(side(mode, 'agent'), 100)} ms`;
/** the goal for a node's loss (docs/performance.md): frames back at both sides within 5 s on a quiet machine */
const GOAL_MS = 5000;
const moves = kills.filter((k) => k.mode === 'move');
const movesInGoal = moves.filter((k) => k.framesBackMs.guest !== null && k.framesBackMs.agent !== null && Math.max(k.framesBackMs.guest, k.framesBackMs.agent) <= GOAL_MS).length;
console.error(
  (moves.length ? `node lost: frames back at both sides within ${GOAL_MS / 1000} s in ${movesInGoal} of ${moves.length} rounds\n` : '') +
  `Janus nodes: ${PLACEMENTS} placements per batch, split ${batches.map((b) => `${b.burst === 1 ? 'one by one' : `bursts of ${b.burst}`} ${b.perNode['janus-1'] ?? 0}:${b.perNode['janus-2'] ?? 0}`).join(', ')} (ideal ${PLACEMENTS / 2}:${PLACEMENTS / 2})` +
    (kills.length ? `; frames back after the kill p50 / max: node lost (move) ${fig('move')}; lone Janus restarted 5 s later ${fig('restart')}` : ''),
);
process.exit(overBudget ? 1 : 0);
