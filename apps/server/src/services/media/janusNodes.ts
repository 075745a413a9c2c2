/**
 * The Janus nodes the server places call rooms on (docs/operations.md "Scaling"). Janus does not
 * cluster: a room lives in one Janus process. So each node is a row of janus_nodes (its endpoints from
 * LOBBY_JANUS_NODES, its state, when it last answered, its load), every instance checks each node's
 * health through its admin API every few seconds (one that does not answer is `down`), and a new call's
 * room goes on the serving node with the fewest open rooms (then the fewest Janus sessions). A draining
 * node (`lobby-admin janus-drain`) and a down one get no new rooms; the rooms already on them stay there,
 * and every later request about a room goes to the node its row names (services/media/mediaRooms.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config, JanusNodeEndpoints } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { createJanusNodesRepository, type JanusNodeRow } from '../../repositories/janusNodes.ts';
import type { createMediaRoomsRepository } from '../../repositories/mediaRooms.ts';
import { createJanusVideoroomAdmin, type JanusVideoroomAdmin } from './janusAdmin.ts';
import type { JanusTokens } from './janusTokens.ts';

/** how often each instance asks each node (ms) */
export const HEALTH_EVERY_MS = 5000;
/** a node whose last check is older than this is not trusted to be serving (no instance is checking) */
export const HEALTH_FRESH_MS = 4 * HEALTH_EVERY_MS;

export interface NodeHealth {
  healthy: boolean;
  sessions: number;
}

export class NoJanusNodeError extends Error {
  /** the answer to the grant that needed a room: the media service is unavailable, not the client's mistake */
  readonly statusCode = 503;
  constructor() {
    super('janus: no Janus node is serving (every node is down or draining)');
    this.name = 'NoJanusNodeError';
  }
}

export interface JanusNodes {
  /** The node's endpoints; null (a room made before nodes were recorded) and unknown names: the first node. */
  endpoints(name: string | null): JanusNodeEndpoints;
  /** The videoroom admin client of the node. */
  admin(name: string | null): JanusVideoroomAdmin;
  /**
   * The node a new room goes on; throws NoJanusNodeError when none is serving. `exclude`: a node just found
   * not answering, before its health check says so (a lost node's room moves elsewhere).
   */
  place(options?: { exclude?: string | null }): Promise<string>;
  /** Writes the configured nodes' rows (at start). */
  sync(): Promise<void>;
  /** Asks every configured node whether it is up, and records it. */
  checkHealth(): Promise<void>;
}

/**
 * The serving node with the fewest open rooms, then the fewest Janus sessions, then the first in the
 * configured order; null when none is serving. A lone configured node that is not drained is chosen
 * whatever its health: there is nowhere else to go, and its own answer to `create` tells.
 */
export function pickNode(input: {
  configured: string[];
  rows: JanusNodeRow[];
  /** open rooms per node (null: rooms made before nodes were recorded, on the first node) */
  rooms: Map<string | null, number>;
  now: number;
  freshMs?: number;
  /** a node known not to answer now, whatever its last health */
  exclude?: string | null;
}): string | null {
  const { configured, rows, rooms, now } = input;
  const freshMs = input.freshMs ?? HEALTH_FRESH_MS;
  const byName = new Map(rows.map((r) => [r.name, r]));
  if (configured.length === 1) {
    const only = configured[0] as string;
    return byName.get(only)?.draining === 1 ? null : only;
  }
  const load = (name: string) =>
    (rooms.get(name) ?? 0) + (name === configured[0] ? (rooms.get(null) ?? 0) : 0);
  const serving = configured.filter((name) => {
    if (name === input.exclude) return false;
    const row = byName.get(name);
    return row?.state === 'serving' && row.checked_at !== null && now - row.checked_at <= freshMs;
  });
  serving.sort(
    (a, b) => load(a) - load(b) || (byName.get(a)?.sessions ?? 0) - (byName.get(b)?.sessions ?? 0),
  );
  return serving[0] ?? null;
}

/** A node's health from its admin API: `list_sessions` answered (with how many), or not within 3 s. */
export function adminProbe(adminSecret: string): (node: JanusNodeEndpoints) => Promise<NodeHealth> {
  return async (node) => {
    try {
      const res = await fetch(node.adminUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          janus: 'list_sessions',
          transaction: randomBytes(8).toString('hex'),
          admin_secret: adminSecret,
        }),
        signal: AbortSignal.timeout(3000),
      });
      const answer = (await res.json()) as { janus?: string; sessions?: unknown };
      if (answer.janus !== 'success') return { healthy: false, sessions: 0 };
      return { healthy: true, sessions: Array.isArray(answer.sessions) ? answer.sessions.length : 0 };
    } catch {
      return { healthy: false, sessions: 0 };
    }
  };
}

export function createJanusNodes(deps: {
  nodes: JanusNodeEndpoints[];
  repo: ReturnType<typeof createJanusNodesRepository>;
  rooms: Pick<ReturnType<typeof createMediaRoomsRepository>, 'openPerNode'>;
  /** the videoroom admin client of one node (tests: a fake Janus per node) */
  adminFor?: (node: JanusNodeEndpoints) => JanusVideoroomAdmin;
  adminKey?: string;
  tokens?: JanusTokens;
  probe: (node: JanusNodeEndpoints) => Promise<NodeHealth>;
  now: () => number;
}): JanusNodes {
  const first = deps.nodes[0];
  if (!first) throw new Error('janus: no node configured');
  const byName = new Map(deps.nodes.map((n) => [n.name, n]));
  const adminFor =
    deps.adminFor ??
    ((node: JanusNodeEndpoints) => {
      if (deps.tokens === undefined || deps.adminKey === undefined)
        throw new Error('janus: admin clients need the tokens and the admin key');
      return createJanusVideoroomAdmin(node.httpUrl, deps.adminKey, deps.tokens);
    });
  const admins = new Map(deps.nodes.map((n) => [n.name, adminFor(n)]));
  const endpoints = (name: string | null) => (name === null ? first : (byName.get(name) ?? first));
  return {
    endpoints,
    admin: (name) => admins.get(endpoints(name).name) as JanusVideoroomAdmin,
    async place(options) {
      const [rows, rooms] = await Promise.all([deps.repo.list(), deps.rooms.openPerNode()]);
      const name = pickNode({ configured: deps.nodes.map((n) => n.name), rows, rooms, now: deps.now(), exclude: options?.exclude ?? null });
      if (name === null) throw new NoJanusNodeError();
      return name;
    },
    async sync() {
      for (const node of deps.nodes) await deps.repo.upsert(node);
    },
    async checkHealth() {
      await Promise.all(
        deps.nodes.map(async (node) => deps.repo.setHealth(node.name, await deps.probe(node), deps.now())),
      );
    },
  };
}

/** The configured nodes on the server's database, each with its admin client; health from the admin API. */
export function janusNodesOf(
  config: Pick<Config, 'janusNodes' | 'janusRoomAdminKey' | 'janusAdminSecret'>,
  db: Kysely<Database>,
  deps: {
    rooms: Pick<ReturnType<typeof createMediaRoomsRepository>, 'openPerNode'>;
    tokens: JanusTokens;
    now: () => number;
    probe?: (node: JanusNodeEndpoints) => Promise<NodeHealth>;
  },
): JanusNodes {
  return createJanusNodes({
    nodes: config.janusNodes,
    repo: createJanusNodesRepository(db),
    rooms: deps.rooms,
    adminKey: config.janusRoomAdminKey,
    tokens: deps.tokens,
    probe: deps.probe ?? adminProbe(config.janusAdminSecret),
    now: deps.now,
  });
}
