import { withCompanyDefaults } from '@lobby/contracts';
import type { Assignment, AssignmentGroup, CompanyDetails, CompanySettings } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createFormsRepository } from './forms.ts';

export interface CompanyRow {
  id: number;
  name: string;
  host: string;
  activated: boolean;
  settings: CompanySettings;
}

function parseSettings(raw: string): CompanySettings {
  try {
    const parsed: unknown = JSON.parse(raw);
    return withCompanyDefaults(typeof parsed === 'object' && parsed !== null ? (parsed) : null);
  } catch {
    return withCompanyDefaults(null);
  }
}

export function createCompaniesRepository(db: Kysely<Database>) {
  const toRow = (r: { id: number; name: string; host: string; activated: number; settings: string }): CompanyRow => ({
    id: r.id,
    name: r.name,
    host: r.host,
    activated: r.activated === 1,
    settings: parseSettings(r.settings),
  });

  const forms = createFormsRepository(db);
  return {
    async byId(id: number): Promise<CompanyRow | null> {
      const r = await db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
      return r ? toRow(r) : null;
    },

    async assignments(companyId: number): Promise<Assignment[]> {
      return db
        .selectFrom('assignments')
        .select(['id', 'name', 'type'])
        .where('company_id', '=', companyId)
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    async assignmentGroups(companyId: number): Promise<AssignmentGroup[]> {
      const groups = await db
        .selectFrom('assignment_groups')
        .select(['id', 'name'])
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
      return groups.map((g) => ({
        id: g.id,
        name: g.name,
        assignmentIds: members.filter((m) => m.group_id === g.id).map((m) => m.assignment_id),
      }));
    },

    async details(company: CompanyRow): Promise<CompanyDetails> {
      const [assignments, assignmentGroups, welcome, rating] = await Promise.all([
        this.assignments(company.id),
        this.assignmentGroups(company.id),
        forms.byKind(company.id, 'welcome'),
        forms.byKind(company.id, 'rating'),
      ]);
      return {
        ...company.settings,
        // The rating form the guest app should post against is the company's current one.
        ratingForm: rating ? { id: rating.id } : null,
        forms: { welcome, rating },
        id: company.id,
        activated: company.activated,
        name: company.name,
        host: company.host,
        assignments,
        assignmentGroups,
      };
    },

    /** The id of the company whose `host` equals the request's host name (without port), lowest id first; null for none. */
    async idByHost(host: string): Promise<number | null> {
      const r = await db.selectFrom('companies').select('id').where('host', '=', host).orderBy('id').executeTakeFirst();
      return r ? r.id : null;
    },

    /** The agents (any role) of every assignment of the company, by user id within each: assignmentAgents of each at once. */
    async agentsOfAssignments(companyId: number): Promise<Array<{ assignmentId: number; xmppUsername: string }>> {
      const rows = await db
        .selectFrom('user_assignments')
        .innerJoin('assignments', 'assignments.id', 'user_assignments.assignment_id')
        .innerJoin('users', 'users.id', 'user_assignments.user_id')
        .select(['user_assignments.assignment_id', 'users.xmpp_username'])
        .where('assignments.company_id', '=', companyId)
        .orderBy('user_assignments.assignment_id')
        .orderBy('users.id')
        .execute();
      return rows.map((r) => ({ assignmentId: r.assignment_id, xmppUsername: r.xmpp_username }));
    },

    /** Bare JIDs' local parts of the agents (any role) assigned to an assignment. */
    async assignmentAgents(assignmentId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('user_assignments')
        .innerJoin('users', 'users.id', 'user_assignments.user_id')
        .select('users.xmpp_username')
        .where('user_assignments.assignment_id', '=', assignmentId)
        .orderBy('users.id')
        .execute();
      return rows.map((r) => r.xmpp_username);
    },
  };
}
export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
