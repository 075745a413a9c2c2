/**
 * The scale stage's two Janus nodes as a journey sees them (scripts/lib/stack.sh LOBBY_JANUS_LOCAL_NODES,
 * docs/operations.md "Scaling"): their rows, the node of a call's room, and the operator's drain, run as
 * an operator runs it (`lobby-admin janus-drain NAME` with the server's environment).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { queryRows } from '../support/db.ts';

const run = promisify(execFile);

export const NODES = ['janus-1', 'janus-2'];

/** Runs `lobby-admin ARGS…` as the operator does, with the stack's environment; its output. */
export async function lobbyAdmin(...args: string[]): Promise<string> {
  const root = path.resolve(import.meta.dirname, '../..');
  const { stdout } = await run(
    process.execPath,
    [path.join(root, 'apps/server/src/cli/lobby-admin.ts'), ...args],
    {
      cwd: root,
      env: process.env,
      timeout: 60_000,
    },
  );
  return stdout;
}

/** The node the call's room is on (its media_rooms row). */
export async function nodeOfCall(callId: string): Promise<string | null> {
  const [row] = await queryRows<{ janus_node: string | null }>(
    'select janus_node from media_rooms where call_id = ?',
    [callId],
  );
  return row?.janus_node ?? null;
}

/** Waits until both nodes are serving (every instance checks them every 5 s) with as many open rooms each. */
export async function expectBothServingAndEven(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await queryRows<{ name: string; state: string }>(
            'select name, state from janus_nodes order by name',
          )
        ).map((r) => `${r.name}:${r.state}`),
      {
        timeout: 30_000,
      },
    )
    .toEqual(NODES.map((n) => `${n}:serving`));
  const open = await queryRows<{ janus_node: string | null; call_id: string }>(
    'select janus_node, call_id from media_rooms where destroyed_at is null order by call_id',
  );
  const count = (node: string) => open.filter((r) => r.janus_node === node).length;
  // the calls are named, so that a failure says which earlier journey left its rooms open
  expect(
    count('janus-1'),
    `open rooms left by an earlier journey on janus-1 vs janus-2: ${open.map((r) => `${r.call_id} on ${r.janus_node}`).join(', ')}`,
  ).toBe(count('janus-2'));
}
