/**
 * Round robin across server instances (docs/architecture.md "Shared state"): duplicate offers and how late
 * an offer moves after its deadline, on two instances against one, in the same run. Each set-up is a
 * fresh PostgreSQL schema with two agents of the Sales assignment: on one instance both consoles' streams
 * are open on it; on two instances one stream is on each, and calls open on both, so each deadline is
 * timed by the instance that made the offer and polled by both (every second). Offers last 1 s; nobody
 * answers, so each call is offered to one agent, moves to the other, then opens to all. Batches of calls
 * alternate between the set-ups, so the machine's load weighs on both alike.
 *
 *   LOBBY_TEST_PG_URL=postgres://… node bench/round-robin-instances.ts [batches=20] [calls per batch=5]
 *
 * A duplicate is an agent offered one call twice, or a call offered more than twice; a move's lateness is
 * when the console heard the next offer (or the opening) less the deadline. Exits 1 on any duplicate.
 */
import { openCall } from '../apps/server/test/helpers/fixtures.ts';
import { percentile, type StreamedEvent } from './lib/consoleStream.ts';
import { agentOn, benchInstances, requirePostgres } from './lib/twoInstances.ts';

const batches = Number(process.argv[2] ?? 20);
const perBatch = Number(process.argv[3] ?? 5);
requirePostgres('round-robin-instances');

type Routing = { callId: string; state: 'offered' | 'open'; offeredTo: string | null; expiresAt: string | null };

async function setUp(count: 1 | 2) {
  const s = await benchInstances(count, { roundRobinOfferSeconds: 1 });
  const first = s.instances[0]!;
  const last = s.instances[count - 1]!;
  const agents = [await agentOn(s, first), await agentOn(s, last)];
  return { s, agents, calls: [] as string[] };
}

const setups = { one: await setUp(1), two: await setUp(2) };
try {
  for (let b = 0; b < batches; b++) {
    for (const setup of Object.values(setups)) {
      const opened = await Promise.all(
        Array.from({ length: perBatch }, (_, k) => {
          const on = setup.s.instances[k % setup.s.instances.length]!;
          return openCall(on.app, setup.s.guests[k]!, { assignment_id: setup.s.salesId });
        }),
      );
      setup.calls.push(...opened.map((c) => c.callId));
    }
    // two offers of 1 s each, then open; the polls run every second
    await new Promise((r) => setTimeout(r, 3500));
  }
  await new Promise((r) => setTimeout(r, 2000));

  console.log(`${batches} batches of ${perBatch} calls on each set-up, offers of 1 s, nobody answers`);
  console.log('| set-up | calls | offers | duplicate offers | calls not opened at the end | lateness p50 (ms) | p99 (ms) | max (ms) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  let duplicates = 0;
  for (const [name, setup] of Object.entries(setups)) {
    // every routing event reaches every console of the company: the first agent's stream hears them all
    const heard = setup.agents[0]!.stream.events.filter((e): e is StreamedEvent & { data: Routing } => e.event === 'callRouting');
    let offers = 0;
    let dup = 0;
    let notOpened = 0;
    const lateness: number[] = [];
    for (const callId of setup.calls) {
      const events = heard.filter((e) => e.data.callId === callId);
      // an offer is its agent and deadline; the same offer heard twice is one offer
      const distinct = new Map<string, StreamedEvent & { data: Routing }>();
      for (const e of events) if (e.data.state === 'offered') distinct.set(`${e.data.offeredTo}@${e.data.expiresAt}`, e);
      const offered = [...distinct.values()];
      offers += offered.length;
      const agentsOffered = offered.map((e) => e.data.offeredTo);
      dup += agentsOffered.length - new Set(agentsOffered).size + Math.max(0, offered.length - 2);
      if (events.at(-1)?.data.state !== 'open') notOpened += 1;
      for (const offer of offered) {
        const next = events.find((e) => e.at > offer.at && (e.data.state === 'open' || e.data.expiresAt !== offer.data.expiresAt));
        if (next) lateness.push(performance.timeOrigin + next.at - Date.parse(offer.data.expiresAt!));
      }
    }
    duplicates += dup;
    console.log(
      `| ${name === 'one' ? 'one instance' : 'two instances'} | ${setup.calls.length} | ${offers} | ${dup} | ${notOpened} | ${percentile(lateness, 50).toFixed(0)} | ${percentile(lateness, 99).toFixed(0)} | ${Math.max(...lateness).toFixed(0)} |`,
    );
  }
  process.exitCode = duplicates === 0 ? 0 : 1;
} finally {
  for (const setup of Object.values(setups)) {
    for (const a of setup.agents) a.stream.close();
    await setup.s.close();
  }
}
