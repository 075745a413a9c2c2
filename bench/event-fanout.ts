/**
 * Event fan-out across server instances (docs/architecture.md "Shared state"): one event, two consoles.
 * Two instances of the app factory on one PostgreSQL schema, each with its own listening connection; a
 * console's event stream open on instance A and another's on instance B. A guest opens a call on A: the
 * stream on A gets `callOpened` from A's in-process bus (the baseline), the stream on B through
 * PostgreSQL (`pg_notify` after A's commit, B's LISTEN). Both are measured on the same event, so the
 * machine's load weighs on both alike; the difference is what crossing instances costs.
 *
 *   LOBBY_TEST_PG_URL=postgres://… node bench/event-fanout.ts [calls=1000]
 *
 * Also prints the peak of the database's connections during the run (pg_stat_activity): both instances'
 * pools, listening connections and job-lock connections.
 */
import { openCall } from '../apps/server/test/helpers/fixtures.ts';
import { percentile } from './lib/consoleStream.ts';
import { agentOn, benchInstances, connectionSampler, requirePostgres } from './lib/twoInstances.ts';

const calls = Number(process.argv[2] ?? 1000);
requirePostgres('event-fanout');

const s = await benchInstances(2, {});
const [a, b] = s.instances as [(typeof s.instances)[0], (typeof s.instances)[0]];
try {
  const local = await agentOn(s, a);
  const remote = await agentOn(s, b);
  const arrival = (events: typeof local.stream.events, callId: string) =>
    events.find((e) => e.event === 'callOpened' && (e.data as { callId: string }).callId === callId)?.at;
  const connections = await connectionSampler();
  const inProcess: number[] = [];
  const crossing: number[] = [];
  for (let i = -20; i < calls; i++) {
    const guest = s.guests[(i + 20) % s.guests.length]!;
    const t0 = performance.now();
    const { callId } = await openCall(a.app, guest, { assignment_id: s.salesId });
    const started = Date.now();
    let atA: number | undefined;
    let atB: number | undefined;
    while ((atA = arrival(local.stream.events, callId)) === undefined || (atB = arrival(remote.stream.events, callId)) === undefined) {
      if (Date.now() - started > 10_000) throw new Error(`callOpened of ${callId} missing after 10 s`);
      await new Promise((r) => setImmediate(r));
    }
    // the streams' lists are searched from the start: keep them short
    local.stream.events.length = 0;
    remote.stream.events.length = 0;
    if (i < 0) continue; // warm-up
    inProcess.push(atA - t0);
    crossing.push(atB - t0);
  }
  const extra = crossing.map((x, i) => x - inProcess[i]!);
  const row = (name: string, xs: number[]) => `| ${name} | ${percentile(xs, 50).toFixed(2)} | ${percentile(xs, 99).toFixed(2)} |`;
  console.log(`${calls} calls opened on instance A; time from the request to callOpened on each console's stream (ms)`);
  console.log('| | p50 | p99 |\n| --- | --- | --- |');
  console.log(row('stream on A (in-process bus)', inProcess));
  console.log(row('stream on B (pg_notify → LISTEN)', crossing));
  console.log(row('B − A, the same event', extra));
  console.log(`ratio of p50s B/A: ${(percentile(crossing, 50) / percentile(inProcess, 50)).toFixed(2)}`);
  console.log(`PostgreSQL connections at peak (two instances): ${await connections.stop()}`);
  local.stream.close();
  remote.stream.close();
} finally {
  await s.close();
}
