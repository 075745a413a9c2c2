import crypto from 'node:crypto';
import type { AdminUser, Role } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface UserChanges {
  email?: string;
  name?: string;
  role?: Role;
  passwordHash?: string;
  assignmentIds?: number[];
}

/** Console users of one company (agents, supervisors, admins). Password hashes never leave this file. */
export function createAdminUsersRepository(db: Kysely<Database>, now: () => number) {
  async function checkAssignments(trx: Kysely<Database>, companyId: number, ids: number[]): Promise<number | null> {
    if (ids.length === 0) return null;
    const rows = await trx.selectFrom('assignments').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute();
    const known = new Set(rows.map((r) => r.id));
    return ids.find((a) => !known.has(a)) ?? null;
  }

  return {
    async list(companyId: number): Promise<AdminUser[]> {
      const users = await db.selectFrom('users').select(['id', 'email', 'name', 'role']).where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
      if (users.length === 0) return [];
      const links = await db
        .selectFrom('user_assignments')
        .select(['user_id', 'assignment_id'])
        .where(
          'user_id',
          'in',
          users.map((u) => u.id),
        )
        .orderBy('assignment_id')
        .execute();
      return users.map((u) => ({ ...u, assignmentIds: links.filter((l) => l.user_id === u.id).map((l) => l.assignment_id) }));
    },

    async emailTaken(email: string, exceptId?: number): Promise<boolean> {
      let q = db.selectFrom('users').select('id').where('email', '=', email);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async adminCount(companyId: number): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('company_id', '=', companyId)
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async roleOf(companyId: number, id: number): Promise<Role | null> {
      const r = await db.selectFrom('users').select('role').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return r?.role ?? null;
    },

    async create(
      companyId: number,
      u: { email: string; name: string; role: Role; passwordHash: string; assignmentIds: number[] },
    ): Promise<{ id: number } | { badAssignmentId: number }> {
      return db.transaction().execute(async (trx) => {
        const bad = await checkAssignments(trx, companyId, u.assignmentIds);
        if (bad !== null) return { badAssignmentId: bad };
        const row = await trx
          .insertInto('users')
          .values({
            company_id: companyId,
            email: u.email,
            name: u.name,
            role: u.role,
            password_hash: u.passwordHash,
            xmpp_username: `u${crypto.randomBytes(8).toString('hex')}`,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (u.assignmentIds.length) {
          await trx.insertInto('user_assignments').values(u.assignmentIds.map((assignment_id) => ({ user_id: row.id, assignment_id }))).execute();
        }
        return { id: row.id };
      });
    },

    async update(companyId: number, id: number, c: UserChanges): Promise<'ok' | 'notFound' | { badAssignmentId: number }> {
      return db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('users').select('id').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
        if (!found) return 'notFound';
        if (c.assignmentIds) {
          const bad = await checkAssignments(trx, companyId, c.assignmentIds);
          if (bad !== null) return { badAssignmentId: bad };
        }
        const set = {
          ...(c.email !== undefined ? { email: c.email } : {}),
          ...(c.name !== undefined ? { name: c.name } : {}),
          ...(c.role !== undefined ? { role: c.role } : {}),
          ...(c.passwordHash !== undefined ? { password_hash: c.passwordHash } : {}),
        };
        if (Object.keys(set).length) await trx.updateTable('users').set(set).where('id', '=', id).execute();
        if (c.passwordHash !== undefined) await trx.deleteFrom('console_sessions').where('user_id', '=', id).execute();
        if (c.assignmentIds) {
          await trx.deleteFrom('user_assignments').where('user_id', '=', id).execute();
          if (c.assignmentIds.length) {
            await trx.insertInto('user_assignments').values(c.assignmentIds.map((assignment_id) => ({ user_id: id, assignment_id }))).execute();
          }
        }
        return 'ok';
      });
    },

    async remove(companyId: number, id: number): Promise<boolean> {
      const r = await db.deleteFrom('users').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
