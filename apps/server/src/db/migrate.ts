import { Migrator } from 'kysely/migration';
import type { Migration, MigrationProvider, MigrationResultSet } from 'kysely/migration';
import type { Db, Dialect } from './database.ts';
import { initial } from './migrations/0001_initial.ts';
import { serviceApi } from './migrations/0002_service_api.ts';
import { admin } from './migrations/0003_admin.ts';
import { callTransfers } from './migrations/0004_call_transfers.ts';
import { callDetails } from './migrations/0005_call_details.ts';
import { mediaRooms } from './migrations/0006_media_rooms.ts';
import { recordingPrivacy } from './migrations/0007_recording_privacy.ts';
import { openCallIndexes } from './migrations/0008_open_call_indexes.ts';
import { guestRoomIndex } from './migrations/0009_guest_room_index.ts';
import { profileImages } from './migrations/0010_profile_images.ts';
import { agentAnswered } from './migrations/0011_agent_answered.ts';
import { partialOriginIndex } from './migrations/0012_partial_origin_index.ts';
import { callBugGuestIndex } from './migrations/0013_call_bug_guest_index.ts';
import { openCallAddress } from './migrations/0014_open_call_address.ts';
import { sharedRouting } from './migrations/0015_shared_routing.ts';
import { sharedState } from './migrations/0016_shared_state.ts';
import { guestBooking } from './migrations/0017_guest_booking.ts';
import { janusNodes } from './migrations/0018_janus_nodes.ts';
import { mediaRoomCodec } from './migrations/0019_media_room_codec.ts';

/**
 * The ordered list of migrations. Later issues append entries (`'0002_quotas': quotas`), never edit old ones.
 * Each entry is a factory taking the dialect, so one migration serves SQLite and PostgreSQL.
 */
const MIGRATIONS: Record<string, (dialect: Dialect) => Migration> = {
  '0001_initial': initial,
  '0002_service_api': serviceApi,
  '0003_admin': admin,
  '0004_call_transfers': callTransfers,
  '0005_call_details': callDetails,
  '0006_media_rooms': mediaRooms,
  '0007_recording_privacy': recordingPrivacy,
  '0008_open_call_indexes': openCallIndexes,
  '0009_guest_room_index': guestRoomIndex,
  '0010_profile_images': profileImages,
  '0011_agent_answered': agentAnswered,
  '0012_partial_origin_index': partialOriginIndex,
  '0013_call_bug_guest_index': callBugGuestIndex,
  '0014_open_call_address': openCallAddress,
  '0015_shared_routing': sharedRouting,
  '0016_shared_state': sharedState,
  '0017_guest_booking': guestBooking,
  '0018_janus_nodes': janusNodes,
  '0019_media_room_codec': mediaRoomCodec,
};

class CodeMigrationProvider implements MigrationProvider {
  readonly dialect: Dialect;
  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(Object.fromEntries(Object.entries(MIGRATIONS).map(([name, make]) => [name, make(this.dialect)])));
  }
}

/** Bring the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  // Kysely looks for its bookkeeping tables in every schema it can see; with several schemas side by side
  // (tests) it must be told which one is ours, or it finds another run's table and skips creating its own.
  const migrator = new Migrator({
    db: db.kysely,
    provider: new CodeMigrationProvider(db.dialect),
    ...(db.pgSchema ? { migrationTableSchema: db.pgSchema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
  return result;
}
