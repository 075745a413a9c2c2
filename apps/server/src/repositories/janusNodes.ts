import type { Kysely } from 'kysely';
import type { JanusNodeEndpoints } from '../config.ts';
import type { Database } from '../db/schema.ts';

export type JanusNodeState = 'serving' | 'draining' | 'down';

/** Table of migration 0018_janus_nodes (kept beside its repository). */
export interface JanusNodesTable {
  name: string;
  ws_url: string;
  http_url: string;
  admin_url: string;
  state: JanusNodeState;
  /** 1: the operator drains it (`lobby-admin janus-drain`): no new rooms, whatever its health */
  draining: number;
  /** epoch ms of the last health check, and of the last one it answered */
  checked_at: number | null;
  healthy_at: number | null;
  /** Janus sessions it held at its last answer */
  sessions: number;
}

interface NodesDatabase extends Database {
  janus_nodes: JanusNodesTable;
}

export type JanusNodeRow = JanusNodesTable;

const stateOf = (draining: boolean, healthy: boolean): JanusNodeState => (!healthy ? 'down' : draining ? 'draining' : 'serving');

export function createJanusNodesRepository(base: Kysely<Database>) {
  const db = base as unknown as Kysely<NodesDatabase>;
  return {
    async list(): Promise<JanusNodeRow[]> {
      return db.selectFrom('janus_nodes').selectAll().orderBy('name').execute();
    },
    async byName(name: string): Promise<JanusNodeRow | null> {
      return (await db.selectFrom('janus_nodes').selectAll().where('name', '=', name).executeTakeFirst()) ?? null;
    },
    /** A configured node's row, its endpoints brought up to date (its state and drain are kept). */
    async upsert(node: JanusNodeEndpoints): Promise<void> {
      const urls = { ws_url: node.wsUrl, http_url: node.httpUrl, admin_url: node.adminUrl };
      await db
        .insertInto('janus_nodes')
        .values({ name: node.name, ...urls, state: 'down', draining: 0, checked_at: null, healthy_at: null, sessions: 0 })
        .onConflict((c) => c.column('name').doUpdateSet(urls))
        .execute();
    },
    /** What one health check found: answered (with its sessions) or not. */
    async setHealth(name: string, health: { healthy: boolean; sessions: number }, now: number): Promise<void> {
      const row = await this.byName(name);
      if (!row) return;
      await db
        .updateTable('janus_nodes')
        .set({
          state: stateOf(row.draining === 1, health.healthy),
          checked_at: now,
          ...(health.healthy ? { healthy_at: now, sessions: health.sessions } : {}),
        })
        .where('name', '=', name)
        .execute();
    },
    /** The operator's drain (or its undoing); false when there is no such node. */
    async setDraining(name: string, draining: boolean): Promise<boolean> {
      const row = await this.byName(name);
      if (!row) return false;
      await db
        .updateTable('janus_nodes')
        .set({ draining: draining ? 1 : 0, state: stateOf(draining, row.state !== 'down') })
        .where('name', '=', name)
        .execute();
      return true;
    },
  };
}
