/**
 * Janus nodes that answer nothing (port 9, discard: closed on a test machine) and a call's room recorded on
 * one of them: a rejoin then finds its room's node down (docs/operations.md "Several Janus nodes").
 */
import type { JanusNodeEndpoints } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { createMediaRoomsRepository } from '../../src/repositories/mediaRooms.ts';

export const deadJanusNode = (name: string): JanusNodeEndpoints => ({
  name,
  wsUrl: 'ws://127.0.0.1:9',
  httpUrl: 'http://127.0.0.1:9/janus',
  adminUrl: 'http://127.0.0.1:9/admin',
});

/** The call's room as its first grant left it, on `node`; `destroyed`: the server closed it since. */
export async function roomOn(db: Db, node: string, room: { callId: string; companyId: number; destroyed?: boolean }): Promise<void> {
  const repo = createMediaRoomsRepository(db.kysely);
  const row = { call_id: room.callId, company_id: room.companyId, pin: 'pin', secret: 'secret', created_at: Date.now(), janus_node: node };
  if (!(await repo.add(row))) throw new Error(`the media room of ${room.callId} exists already`);
  if (room.destroyed) await repo.setDestroyed(room.callId, Date.now());
}

/** The node the call's room's row names now. */
export async function nodeOfRoom(db: Db, callId: string): Promise<string | null> {
  return (await createMediaRoomsRepository(db.kysely).byCallId(callId))?.janus_node ?? null;
}
