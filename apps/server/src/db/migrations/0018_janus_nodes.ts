import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * Several Janus nodes (docs/operations.md "Scaling"): Janus does not cluster, so the server places each
 * call's room on one node and records which.
 * - janus_nodes: each node's endpoints (from LOBBY_JANUS_NODES), its state (serving, draining: the
 *   operator's `lobby-admin janus-drain`, down: its admin API did not answer), when it last answered and
 *   its load (Janus sessions);
 * - media_rooms.janus_node: the node of the call's room (null: a room made before this migration, on the
 *   one Janus there was, the first node).
 */
export function janusNodes() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('janus_nodes')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('ws_url', 'text', (c) => c.notNull())
        .addColumn('http_url', 'text', (c) => c.notNull())
        .addColumn('admin_url', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('down'))
        .addColumn('draining', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('checked_at', 'bigint')
        .addColumn('healthy_at', 'bigint')
        .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('media_rooms').addColumn('janus_node', 'text').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('media_rooms').dropColumn('janus_node').execute();
      await db.schema.dropTable('janus_nodes').execute();
    },
  };
}
