/**
 * lobby-admin's Janus node commands (docs/operations.md "Scaling"):
 *
 *   lobby-admin janus-nodes            each node: name, state, open rooms, sessions, last answer
 *   lobby-admin janus-drain NAME       no new call's room goes on NAME; its calls go on there until they end
 *   lobby-admin janus-undrain NAME     NAME takes new rooms again
 *
 * The nodes are those of LOBBY_JANUS_NODES (the server's environment), written to the database first, so
 * that a drain works before any instance has started. Every instance reads the drain from the database at
 * its next placement.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createJanusNodesRepository } from '../repositories/janusNodes.ts';
import { createMediaRoomsRepository } from '../repositories/mediaRooms.ts';

export const JANUS_COMMANDS = new Set(['janus-nodes', 'janus-drain', 'janus-undrain']);
export const JANUS_USAGE = 'usage: lobby-admin janus-nodes | janus-drain NAME | janus-undrain NAME';

/** Runs one of JANUS_COMMANDS; the exit code (2: a usage error, naming what is wrong). */
export async function runJanusCommand(
  command: string,
  args: string[],
  config: Config,
  db: Db,
): Promise<number> {
  const repo = createJanusNodesRepository(db.kysely);
  for (const node of config.janusNodes) await repo.upsert(node);
  if (command === 'janus-nodes') {
    if (args.length) return usage(`janus-nodes takes no argument, got "${args.join(' ')}"`);
    const rooms = await createMediaRoomsRepository(db.kysely).openPerNode();
    const first = config.janusNodes[0]?.name;
    for (const row of await repo.list()) {
      const open = (rooms.get(row.name) ?? 0) + (row.name === first ? (rooms.get(null) ?? 0) : 0);
      const answered = row.healthy_at === null ? 'never' : new Date(row.healthy_at).toISOString();
      console.log(
        `${row.name}\t${row.state}\trooms ${open}\tsessions ${row.sessions}\tlast answer ${answered}\t${row.ws_url}`,
      );
    }
    return 0;
  }
  const [name, ...extra] = args;
  if (!name || extra.length) return usage(`${command} takes one node name`);
  if (!config.janusNodes.some((n) => n.name === name)) {
    return usage(
      `${command}: no Janus node named "${name}" (LOBBY_JANUS_NODES has ${config.janusNodes.map((n) => n.name).join(', ')})`,
    );
  }
  await repo.setDraining(name, command === 'janus-drain');
  const row = await repo.byName(name);
  console.log(
    `${name}: ${command === 'janus-drain' ? 'draining: no new rooms; its calls go on there' : 'takes new rooms again'} (state ${row?.state})`,
  );
  return 0;
}

function usage(message: string): number {
  console.error(`lobby-admin: ${message}\n${JANUS_USAGE}`);
  return 2;
}
