/**
 * The second local Janus node of the tests' scale stage (scripts/lib/stack.sh LOBBY_JANUS_LOCAL_NODES,
 * docs/operations.md "Several Janus nodes"): its own ports, RTP range and folder, and LOBBY_JANUS_NODES
 * naming both nodes for the server and the gate. Two engineers' slots must never share an RTP port.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The nodes' settings for a test slot, as scripts/test sets them up. */
function nodesOfSlot(slot: number): { nodes: string; ranges: string[]; dir: string } {
  const out = execFileSync(
    'bash',
    [
      '-c',
      `set -euo pipefail; lobby_root=$PWD; LOBBY_TEST_SLOT=${slot} . scripts/lib/test-env.sh; . scripts/lib/stack.sh >/dev/null
       LOBBY_JANUS_LOCAL_NODES=2; lobby_janus_nodes_env; echo "$LOBBY_JANUS_NODES"; echo "$JANUS_RTP_RANGE"
       eval "$(lobby_janus_node_env 2)"; echo "$JANUS_RTP_RANGE"; echo "$JANUS_DIR"`,
    ],
    { cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, encoding: 'utf8' },
  );
  const [nodes = '', first = '', second = '', dir = ''] = out.trim().split('\n');
  return { nodes, ranges: [first, second], dir };
}

const span = (range: string) => range.split('-').map(Number) as [number, number];

describe('the second local Janus node (scripts/lib/stack.sh)', () => {
  it('when the scale stage runs two nodes on slot 2, then the second has the first one’s ports + 1, its own RTP range and folder, and both are named for the server', () => {
    const { nodes, ranges, dir } = nodesOfSlot(2);
    expect(nodes).toBe(
      'janus-1 ws://127.0.0.1:8218 http://127.0.0.1:8118/janus http://127.0.0.1:7118/admin; janus-2 ws://127.0.0.1:8219 http://127.0.0.1:8119/janus http://127.0.0.1:7119/admin',
    );
    expect(ranges).toEqual(['10600-10799', '12400-12499']);
    expect(dir).toBe(`${root}/.run/test-2/janus-2`);
  }, 30_000);

  it('when every slot runs two nodes, then no two RTP ranges of any slot overlap', () => {
    const all = [0, 5, 9].flatMap((slot) => nodesOfSlot(slot).ranges.map(span));
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1))
        expect(a[1] < b[0] || b[1] < a[0], `${a.join('-')} and ${b.join('-')}`).toBe(true);
    }
    // the ranges of the slots not run here follow the same steps (200 and 100 ports a slot)
    expect(span(nodesOfSlot(9).ranges[0] ?? '')[1]).toBeLessThan(span(nodesOfSlot(0).ranges[1] ?? '')[0]);
  }, 60_000);
});
