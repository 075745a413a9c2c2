import type { AdminAssignment, AdminAssignmentBody, AdminAssignmentGroup, AdminAssignmentGroupBody } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Assignments and assignment groups of one company. Every method is scoped by company id. */
export function createAdminAssignmentsRepository(db: Kysely<Database>, now: () => number) {
  /** The subset of `ids` that are users of the company (to refuse foreign ids). */
  async function companyUserIds(trx: Kysely<Database>, companyId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await trx.selectFrom('users').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }
  async function companyAssignmentIds(trx: Kysely<Database>, companyId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await trx.selectFrom('assignments').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  return {
    async list(companyId: number): Promise<AdminAssignment[]> {
      const rows = await db
        .selectFrom('assignments')
        .select(['id', 'name', 'type', 'position'])
        .where('company_id', '=', companyId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      if (rows.length === 0) return [];
      const links = await db
        .selectFrom('user_assignments')
        .select(['user_id', 'assignment_id'])
        .where(
          'assignment_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('user_id')
        .execute();
      return rows.map((r) => ({ ...r, agentIds: links.filter((l) => l.assignment_id === r.id).map((l) => l.user_id) }));
    },

    /** Returns the new id, or the id of a user that is not in the company. */
    async create(companyId: number, body: AdminAssignmentBody): Promise<{ id: number } | { badUserId: number }> {
      return db.transaction().execute(async (trx) => {
        const agentIds = [...new Set(body.agentIds ?? [])];
        const known = await companyUserIds(trx, companyId, agentIds);
        const bad = agentIds.find((a) => !known.has(a));
        if (bad !== undefined) return { badUserId: bad };
        const row = await trx
          .insertInto('assignments')
          .values({ company_id: companyId, name: body.name.trim(), type: body.type, position: body.position ?? 0, created_at: now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (agentIds.length) await trx.insertInto('user_assignments').values(agentIds.map((user_id) => ({ user_id, assignment_id: row.id }))).execute();
        return { id: row.id };
      });
    },

    async update(companyId: number, id: number, body: AdminAssignmentBody): Promise<'ok' | 'notFound' | { badUserId: number }> {
      return db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('assignments').select('id').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
        if (!found) return 'notFound';
        const agentIds = body.agentIds ? [...new Set(body.agentIds)] : null;
        if (agentIds) {
          const known = await companyUserIds(trx, companyId, agentIds);
          const bad = agentIds.find((a) => !known.has(a));
          if (bad !== undefined) return { badUserId: bad };
        }
        await trx
          .updateTable('assignments')
          .set({ name: body.name.trim(), type: body.type, ...(body.position !== undefined ? { position: body.position } : {}) })
          .where('id', '=', id)
          .execute();
        if (agentIds) {
          await trx.deleteFrom('user_assignments').where('assignment_id', '=', id).execute();
          if (agentIds.length) await trx.insertInto('user_assignments').values(agentIds.map((user_id) => ({ user_id, assignment_id: id }))).execute();
        }
        return 'ok';
      });
    },

    async remove(companyId: number, id: number): Promise<boolean> {
      const r = await db.deleteFrom('assignments').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async listGroups(companyId: number): Promise<AdminAssignmentGroup[]> {
      const groups = await db
        .selectFrom('assignment_groups')
        .select(['id', 'name', 'position'])
        .where('company_id', '=', companyId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      if (groups.length === 0) return [];
      const members = await db
        .selectFrom('assignment_group_members')
        .select(['group_id', 'assignment_id'])
        .where(
          'group_id',
          'in',
          groups.map((g) => g.id),
        )
        .orderBy('assignment_id')
        .execute();
      return groups.map((g) => ({ ...g, assignmentIds: members.filter((m) => m.group_id === g.id).map((m) => m.assignment_id) }));
    },

    async saveGroup(
      companyId: number,
      id: number | null,
      body: AdminAssignmentGroupBody,
    ): Promise<{ id: number } | 'notFound' | { badAssignmentId: number }> {
      return db.transaction().execute(async (trx) => {
        const ids = [...new Set(body.assignmentIds)];
        const known = await companyAssignmentIds(trx, companyId, ids);
        const bad = ids.find((a) => !known.has(a));
        if (bad !== undefined) return { badAssignmentId: bad };
        let groupId: number;
        if (id === null) {
          const row = await trx
            .insertInto('assignment_groups')
            .values({ company_id: companyId, name: body.name.trim(), position: body.position ?? 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          groupId = row.id;
        } else {
          const r = await trx
            .updateTable('assignment_groups')
            .set({ name: body.name.trim(), ...(body.position !== undefined ? { position: body.position } : {}) })
            .where('id', '=', id)
            .where('company_id', '=', companyId)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) return 'notFound';
          groupId = id;
          await trx.deleteFrom('assignment_group_members').where('group_id', '=', id).execute();
        }
        if (ids.length) await trx.insertInto('assignment_group_members').values(ids.map((assignment_id) => ({ group_id: groupId, assignment_id }))).execute();
        return { id: groupId };
      });
    },

    async removeGroup(companyId: number, id: number): Promise<boolean> {
      const r = await db.deleteFrom('assignment_groups').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type AdminAssignmentsRepository = ReturnType<typeof createAdminAssignmentsRepository>;
