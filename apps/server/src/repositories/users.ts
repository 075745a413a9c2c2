import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotStatement } from '../db/hotStatements.ts';
import type { Database, UsersTable } from '../db/schema.ts';
import { normaliseEmail } from '../services/emailAddress.ts';

export interface UserRow {
  id: number;
  companyId: number;
  email: string;
  name: string;
  role: UsersTable['role'];
  passwordHash: string;
  xmppUsername: string;
  /** the user's picture (uploads.id), or null */
  profileImageId: string | null;
}

const COLUMNS = ['id', 'company_id', 'email', 'name', 'role', 'password_hash', 'xmpp_username', 'profile_image_id'] as const;

type UserColumns = Pick<UsersTable, 'company_id' | 'email' | 'name' | 'role' | 'password_hash' | 'xmpp_username'> & { id: number; profile_image_id: string | null };

/** `hot`: the Db under `db`, for the statements of every console request, prepared once (db/hotStatements.ts). */
export function createUsersRepository(db: Kysely<Database>, hot: Db) {
  // every console request: its session's user (plugins/app/auth.ts); an agent taking a call: its assignments
  const sessionUser = hotStatement<UserColumns>(
    hot,
    'users_of_session',
    `select ${COLUMNS.map((c) => `users.${c}`).join(', ')} from console_sessions inner join users on users.id = console_sessions.user_id where console_sessions.id = ? and console_sessions.expires_at > ?`,
  );
  const assignmentIds = hotStatement<{ assignment_id: number }>(hot, 'users_assignment_ids', 'select assignment_id from user_assignments where user_id = ? order by assignment_id');
  const toRow = (r: UserColumns): UserRow => ({
    id: r.id,
    companyId: r.company_id,
    email: r.email,
    name: r.name,
    role: r.role,
    passwordHash: r.password_hash,
    xmppUsername: r.xmpp_username,
    profileImageId: r.profile_image_id,
  });
  return {
    async byEmail(email: string): Promise<UserRow | null> {
      const r = await db.selectFrom('users').select(COLUMNS).where('email', '=', normaliseEmail(email)).executeTakeFirst();
      return r ? toRow(r) : null;
    },
    async byId(id: number): Promise<UserRow | null> {
      const r = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return r ? toRow(r) : null;
    },
    async setProfileImage(id: number, imageId: string | null): Promise<void> {
      await db.updateTable('users').set({ profile_image_id: imageId }).where('id', '=', id).execute();
    },
    /** Whether an upload is some console user's picture (so anyone may see it: GET /api/profile-images/{id}). */
    async isProfileImage(imageId: string): Promise<boolean> {
      return (await db.selectFrom('users').select('id').where('profile_image_id', '=', imageId).executeTakeFirst()) !== undefined;
    },
    async assignmentIds(userId: number): Promise<number[]> {
      return (await assignmentIds.all([userId])).map((r) => r.assignment_id);
    },

    // Sessions: the cookie holds a random id; the table holds its HMAC.
    async createSession(idHash: string, userId: number, now: number, expiresAt: number): Promise<void> {
      await db.insertInto('console_sessions').values({ id: idHash, user_id: userId, created_at: now, expires_at: expiresAt }).execute();
      // Opportunistic clean-up of expired sessions.
      await db.deleteFrom('console_sessions').where('expires_at', '<', now).execute();
    },
    async sessionUser(idHash: string, now: number): Promise<UserRow | null> {
      const r = await sessionUser.first([idHash, now]);
      return r ? toRow(r) : null;
    },
    async deleteSession(idHash: string): Promise<void> {
      await db.deleteFrom('console_sessions').where('id', '=', idHash).execute();
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
