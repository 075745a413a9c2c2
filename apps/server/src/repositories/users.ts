import type { Kysely } from 'kysely';
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

export function createUsersRepository(db: Kysely<Database>) {
  const toRow = (r: Pick<UsersTable, 'company_id' | 'email' | 'name' | 'role' | 'password_hash' | 'xmpp_username'> & { id: number; profile_image_id: string | null }): UserRow => ({
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
      const rows = await db.selectFrom('user_assignments').select('assignment_id').where('user_id', '=', userId).orderBy('assignment_id').execute();
      return rows.map((r) => r.assignment_id);
    },

    // Sessions: the cookie holds a random id; the table holds its HMAC.
    async createSession(idHash: string, userId: number, now: number, expiresAt: number): Promise<void> {
      await db.insertInto('console_sessions').values({ id: idHash, user_id: userId, created_at: now, expires_at: expiresAt }).execute();
      // Opportunistic clean-up of expired sessions.
      await db.deleteFrom('console_sessions').where('expires_at', '<', now).execute();
    },
    async sessionUser(idHash: string, now: number): Promise<UserRow | null> {
      const r = await db
        .selectFrom('console_sessions')
        .innerJoin('users', 'users.id', 'console_sessions.user_id')
        .select(COLUMNS.map((c) => `users.${c}` as const))
        .where('console_sessions.id', '=', idHash)
        .where('console_sessions.expires_at', '>', now)
        .executeTakeFirst();
      return r ? toRow(r) : null;
    },
    async deleteSession(idHash: string): Promise<void> {
      await db.deleteFrom('console_sessions').where('id', '=', idHash).execute();
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
