import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * What several server instances on one PostgreSQL must share instead of keeping in memory
 * (docs/operations.md "Shared state: jobs, limits and files"):
 * - rate_limits: one row per limited key and window (@fastify/rate-limit's store, services/rateLimitStore.ts);
 * - login_throttle: the wrong-password counts per account and address (services/loginThrottle.ts);
 * - guests.geofence_passed_at: the guest's last geofence pass (services/geofencePasses.ts);
 * - upload_bytes: the bytes of uploaded files and profile pictures (≤ 10 MB each), beside their metadata;
 * - recording_mixes: who is mixing a conversation's recording now, so that one instance mixes it
 *   (services/recordings/mixClaims.ts).
 */
export function sharedState(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_expires').on('rate_limits').column('expires_at').execute();

      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_throttle_last').on('login_throttle').column('last_at').execute();

      await db.schema.alterTable('guests').addColumn('geofence_passed_at', 'bigint').execute();

      await db.schema
        .createTable('upload_bytes')
        .addColumn('upload_id', 'text', (c) => c.primaryKey().references('uploads.id').onDelete('cascade'))
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('recording_mixes')
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('origin_call_id', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_until', 'bigint', (c) => c.notNull())
        // the newest raw file's time when its mix last failed (no new media: no new try)
        .addColumn('failed_newest', 'bigint')
        .addPrimaryKeyConstraint('recording_mixes_pk', ['company_id', 'origin_call_id'])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('recording_mixes').execute();
      await db.schema.dropTable('upload_bytes').execute();
      await db.schema.alterTable('guests').dropColumn('geofence_passed_at').execute();
      await db.schema.dropTable('login_throttle').execute();
      await db.schema.dropTable('rate_limits').execute();
    },
  };
}
