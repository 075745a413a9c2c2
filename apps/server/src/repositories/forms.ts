import type { Answers, FormDefinition, FormField, FormInput, FormKind } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotStatement } from '../db/hotStatements.ts';
import type { Database, FormsTable } from '../db/schema.ts';

export class DuplicateRow extends Error {}

function parseJson<T>(raw: string, fallback: T): T {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

const toDefinition = (r: Pick<FormsTable, 'kind' | 'title' | 'title_ar' | 'fields'> & { id: number }): FormDefinition => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  ...(r.title_ar !== null ? { title_ar: r.title_ar } : {}),
  fields: parseJson<FormField[]>(r.fields, []).sort((a, b) => a.order - b.order),
});

/**
 * Forms (one per kind and company), their submissions and the ratings of calls. `hot`: the Db under `db`;
 * with it, a call's rating (once a visit) is inserted by a statement prepared once (db/hotStatements.ts).
 */
export function createFormsRepository(db: Kysely<Database>, hot?: Db) {
  const insertRating =
    hot &&
    hotStatement<{ id: number }>(
      hot,
      'rating_submissions_add',
      'insert into rating_submissions (company_id, call_report_id, form_id, guest_username, answers, created_at) values (?, ?, ?, ?, ?, ?) returning id',
      { batch: true, returnsRowid: true },
    );
  return {
    async list(companyId: number): Promise<FormDefinition[]> {
      const rows = await db.selectFrom('forms').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
      return rows.map(toDefinition);
    },
    async byKind(companyId: number, kind: FormKind): Promise<FormDefinition | null> {
      const r = await db.selectFrom('forms').selectAll().where('company_id', '=', companyId).where('kind', '=', kind).executeTakeFirst();
      return r ? toDefinition(r) : null;
    },
    /** The form only when it belongs to the company (another company's form is "not found"). */
    async byId(companyId: number, id: number): Promise<FormDefinition | null> {
      const r = await db.selectFrom('forms').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return r ? toDefinition(r) : null;
    },
    /** Throws DuplicateRow when the company already has a form of that kind. */
    async create(companyId: number, f: FormInput, now: number): Promise<number> {
      if (await this.byKind(companyId, f.kind)) throw new DuplicateRow(f.kind);
      try {
        const r = await db
          .insertInto('forms')
          .values({ company_id: companyId, kind: f.kind, title: f.title, title_ar: f.title_ar ?? null, fields: JSON.stringify(f.fields), created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      } catch (err) {
        if (await this.byKind(companyId, f.kind)) throw new DuplicateRow(f.kind);
        throw err;
      }
    },
    /** false when there is no such form in the company. Throws DuplicateRow when the kind is taken by another form. */
    async update(companyId: number, id: number, f: FormInput, now: number): Promise<boolean> {
      const other = await this.byKind(companyId, f.kind);
      if (other && other.id !== id) throw new DuplicateRow(f.kind);
      const r = await db
        .updateTable('forms')
        .set({ kind: f.kind, title: f.title, title_ar: f.title_ar ?? null, fields: JSON.stringify(f.fields), updated_at: now })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async remove(companyId: number, id: number): Promise<boolean> {
      const r = await db.deleteFrom('forms').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async addSubmission(s: { companyId: number; formId: number; guestUsername: string; serviceType: string; answers: Answers; now: number }) {
      const r = await db
        .insertInto('form_submissions')
        .values({
          company_id: s.companyId,
          form_id: s.formId,
          guest_username: s.guestUsername,
          service_type: s.serviceType,
          answers: JSON.stringify(s.answers),
          created_at: s.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async latestSubmission(companyId: number, formId: number, guestUsername: string, serviceType: string) {
      const r = await db
        .selectFrom('form_submissions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('form_id', '=', formId)
        .where('guest_username', '=', guestUsername)
        .where('service_type', '=', serviceType)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return r ? { id: r.id, formId: r.form_id, answers: parseJson<Answers>(r.answers, {}), submittedAt: new Date(r.created_at).toISOString() } : null;
    },

    /** Throws DuplicateRow when the call is already rated (the unique call_report_id refused the insert). */
    async addRating(s: { companyId: number; reportId: number; formId: number | null; guestUsername: string; answers: Answers; now: number }) {
      const exists = () => db.selectFrom('rating_submissions').select('id').where('call_report_id', '=', s.reportId).executeTakeFirst();
      try {
        if (insertRating) {
          const row = await insertRating.first([s.companyId, s.reportId, s.formId, s.guestUsername, JSON.stringify(s.answers), s.now]);
          if (!row) throw new Error('rating_submissions: the insert answered no id');
          return row.id;
        }
        const r = await db
          .insertInto('rating_submissions')
          .values({
            company_id: s.companyId,
            call_report_id: s.reportId,
            form_id: s.formId,
            guest_username: s.guestUsername,
            answers: JSON.stringify(s.answers),
            created_at: s.now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      } catch (err) {
        if (await exists()) throw new DuplicateRow(String(s.reportId));
        throw err;
      }
    },
  };
}
export type FormsRepository = ReturnType<typeof createFormsRepository>;
