import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotStatement, type HotStatement } from '../db/hotStatements.ts';
import type { Database } from '../db/schema.ts';

export interface GuestRow {
  username: string;
  companyId: number;
  createdAt: number;
}

export interface GuestRoomRow {
  assignmentId: number;
  name: string;
  room: string;
}

/** The janitor's query, planned on the index of migration 0009 (test/db/indexes.test.ts). */
export function roomsProvisionedBeforeQuery(db: Kysely<Database>, before: number, limit: number) {
  return db
    .selectFrom('guest_rooms')
    .select(['guest_username', 'assignment_id', 'room_jid'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit);
}

/** `hot`: the Db under `db`, for the statements of every registration, prepared once (db/hotStatements.ts). */
export function createGuestsRepository(db: Kysely<Database>, hot: Db) {
  // a registration reads the browser's guest twice (its rate limit's key, then the route) and inserts it when new
  const byHash = hotStatement<{ username: string; company_id: number; created_at: number }>(
    hot,
    'guests_by_id_hash',
    'select username, company_id, created_at from guests where company_id = ? and guest_id_hash = ?',
  );
  const insert = hotStatement(
    hot,
    'guests_insert',
    'insert into guests (username, company_id, guest_id_hash, created_at) values (?, ?, ?, ?) on conflict (company_id, guest_id_hash) do nothing',
    { batch: true },
  );
  // every registration saves its rooms, one statement per number of rooms (a company's assignments)
  const roomStatements = new Map<number, HotStatement<unknown>>();
  const saveRooms = (n: number) => {
    let stmt = roomStatements.get(n);
    if (!stmt) {
      const values = Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ');
      // created_at is when the room was last provisioned: the janitor keeps it while a credential for it may be valid
      stmt = hotStatement(
        hot,
        `guest_rooms_save_${n}`,
        `insert into guest_rooms (guest_username, assignment_id, room_jid, created_at) values ${values} on conflict (guest_username, assignment_id) do update set created_at = excluded.created_at`,
        { batch: true },
      );
      roomStatements.set(n, stmt);
    }
    return stmt;
  };
  return {
    async byIdHash(companyId: number, guestIdHash: string): Promise<GuestRow | null> {
      const r = await byHash.first([companyId, guestIdHash]);
      return r ? { username: r.username, companyId: r.company_id, createdAt: r.created_at } : null;
    },

    async byUsername(username: string): Promise<GuestRow | null> {
      const r = await db.selectFrom('guests').select(['username', 'company_id', 'created_at']).where('username', '=', username).executeTakeFirst();
      return r ? { username: r.username, companyId: r.company_id, createdAt: r.created_at } : null;
    },

    /** Insert unless (company, hash) exists; returns the stored guest either way (safe under concurrent registrations). */
    async findOrCreate(companyId: number, guestIdHash: string, newUsername: string, now: number): Promise<GuestRow> {
      await insert.first([newUsername, companyId, guestIdHash, now]);
      const row = await this.byIdHash(companyId, guestIdHash);
      if (!row) throw new Error('guest vanished after insert');
      return row;
    },

    async saveRooms(username: string, rooms: Array<{ assignmentId: number; room: string }>, now: number): Promise<void> {
      if (rooms.length === 0) return;
      await saveRooms(rooms.length).first(rooms.flatMap((r) => [username, r.assignmentId, r.room, now]));
    },

    /** Guest rooms last provisioned before `before`, oldest first (services/guestRoomJanitor.ts). */
    async roomsProvisionedBefore(before: number, limit: number): Promise<Array<{ username: string; assignmentId: number; room: string }>> {
      const rows = await roomsProvisionedBeforeQuery(db, before, limit).execute();
      return rows.map((r) => ({ username: r.guest_username, assignmentId: r.assignment_id, room: r.room_jid }));
    },

    /** One guest's rooms last provisioned before `before` (services/guestDepartures.ts: a room provisioned since is a new page's). */
    async roomsOfProvisionedBefore(username: string, before: number): Promise<Array<{ assignmentId: number; room: string }>> {
      const rows = await db
        .selectFrom('guest_rooms')
        .select(['assignment_id', 'room_jid'])
        .where('guest_username', '=', username)
        .where('created_at', '<', before)
        .execute();
      return rows.map((r) => ({ assignmentId: r.assignment_id, room: r.room_jid }));
    },

    /** Forgets a destroyed room (only if it was not provisioned again meanwhile). */
    async forgetRoom(username: string, assignmentId: number, provisionedBefore: number): Promise<void> {
      await db
        .deleteFrom('guest_rooms')
        .where('guest_username', '=', username)
        .where('assignment_id', '=', assignmentId)
        .where('created_at', '<', provisionedBefore)
        .execute();
    },

    async rooms(username: string): Promise<GuestRoomRow[]> {
      const rows = await db
        .selectFrom('guest_rooms')
        .innerJoin('assignments', 'assignments.id', 'guest_rooms.assignment_id')
        .select(['guest_rooms.assignment_id', 'assignments.name', 'guest_rooms.room_jid'])
        .where('guest_rooms.guest_username', '=', username)
        .orderBy('assignments.position')
        .orderBy('assignments.id')
        .execute();
      return rows.map((r) => ({ assignmentId: r.assignment_id, name: r.name, room: r.room_jid }));
    },
  };
}
export type GuestsRepository = ReturnType<typeof createGuestsRepository>;
