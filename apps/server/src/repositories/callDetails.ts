import type { Kysely } from 'kysely';
import { guestNameAnswer, type CallDetails, type CallFormAnswer, type CallSummary, type FormField, type ServiceFilter } from '@lobby/contracts';
import { chainTalkMs, ratingScore, withService } from './reports.ts';
import type { Database } from '../db/schema.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** What agents read of a call and write after it: position, welcome-form answers, the wrap-up note. */
/** The comment of a rating (the plain score's `comment`, or a rating form's field keyed `comment`). */
function ratingComment(answersJson: string): string | null {
  try {
    const c = (JSON.parse(answersJson) as { comment?: unknown } | null)?.comment;
    return typeof c === 'string' && c.trim() !== '' ? c : null;
  } catch {
    return null;
  }
}

export function createCallDetailsRepository(db: Kysely<Database>) {
  const noteOf = async (r: { agent_note: string | null; agent_note_by: number | null; agent_note_at: number | null }) => {
    if (r.agent_note === null || r.agent_note_at === null) return null;
    const author =
      r.agent_note_by === null
        ? null
        : await db.selectFrom('users').select('name').where('id', '=', r.agent_note_by).executeTakeFirst();
    return { text: r.agent_note, by: author?.name ?? null, at: iso(r.agent_note_at) };
  };

  return {
    /** The call of this company, or null (another company's call is "no such call"). */
    async details(companyId: number, callId: string): Promise<CallDetails | null> {
      const r = await db
        .selectFrom('call_reports')
        .selectAll()
        .where('call_id', '=', callId)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      if (!r) return null;
      return {
        callId: r.call_id,
        guestUsername: r.guest_username,
        assignmentId: r.assignment_id,
        appointmentReference: r.appointment_reference,
        createdAt: iso(r.created_at),
        answeredAt: isoOrNull(r.call_answered_at),
        endedAt: isoOrNull(r.call_ended_at),
        agent: r.agent,
        location: r.latitude && r.longitude ? { latitude: r.latitude, longitude: r.longitude } : null,
        form: await this.welcomeAnswers(companyId, r.guest_username, r.created_at),
        note: await noteOf(r),
      };
    },

    /** The guest's latest submission of the company's welcome form up to `at`, in field order. */
    async welcomeAnswers(companyId: number, guestUsername: string, at: number): Promise<CallDetails['form']> {
      const form = await db
        .selectFrom('forms')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('kind', '=', 'welcome')
        .executeTakeFirst();
      if (!form) return null;
      const submission = await db
        .selectFrom('form_submissions')
        .select(['answers', 'created_at'])
        .where('company_id', '=', companyId)
        .where('form_id', '=', form.id)
        .where('guest_username', '=', guestUsername)
        .where('created_at', '<=', at)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (!submission) return null;
      const fields = (JSON.parse(form.fields) as FormField[]).slice().sort((a, b) => a.order - b.order);
      const answers = JSON.parse(submission.answers) as Partial<Record<string, CallFormAnswer['value']>>;
      return {
        title: form.title,
        title_ar: form.title_ar,
        submittedAt: iso(submission.created_at),
        answers: fields.flatMap((f) => {
          const value = answers[f.key];
          if (value === undefined || value === null || value === '') return [];
          return [{ key: f.key, type: f.type, label: f.label, label_ar: f.label_ar ?? null, value }];
        }),
      };
    },

    /** Sets (or, with empty text, removes) the note; false when the call is not this company's. */
    async setNote(companyId: number, callId: string, note: string, userId: number, now: number): Promise<boolean> {
      const text = note.trim();
      const result = await db
        .updateTable('call_reports')
        .set(
          text
            ? { agent_note: text, agent_note_by: userId, agent_note_at: now }
            : { agent_note: null, agent_note_by: null, agent_note_at: null },
        )
        .where('call_id', '=', callId)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * The latest conversations, newest first: one per hold chain (a call held and resumed continues under
     * new call ids, counted once by the reports), with the chain's talk time, whether any part was
     * answered, and the latest note and rating of any of its parts; `service` narrows them to one service
     * (reports.ts withService).
     */
    async latest(companyId: number, limit: number, service: ServiceFilter = 'all'): Promise<CallSummary[]> {
      return summaries(companyId, (origins) =>
        origins
          .$call((q) => withService(q, service, 'call_reports.service_type'))
          .orderBy('call_reports.created_at', 'desc')
          .orderBy('call_reports.id', 'desc')
          .limit(limit),
      );
    },

    /** The conversations whose first call ids are `callIds` (the recordings list), as `latest` tells them. */
    async conversations(companyId: number, callIds: readonly string[]): Promise<Map<string, CallSummary>> {
      if (!callIds.length) return new Map();
      const list = await summaries(companyId, (origins) => origins.where('call_reports.call_id', 'in', [...callIds]));
      return new Map(list.map((c) => [c.callId, c]));
    },
  };

  /**
   * The conversations of the first calls `pick` selects: each with its later parts, talk time, note,
   * rating, the agent who answered (by name) and the guest's name from its welcome form.
   */
  async function summaries(companyId: number, pick: (origins: ReturnType<typeof originsQuery>) => ReturnType<typeof originsQuery>): Promise<CallSummary[]> {
    const origins = await pick(originsQuery(companyId)).execute();
    const ids = origins.map((o) => o.call_id);
    const later = ids.length ? await partsQuery(companyId).where('call_reports.origin_call_id', 'in', ids).execute() : [];
    const agents = await agentNames(companyId, [...origins, ...later].flatMap((p) => (p.agent_answered_at !== null && p.agent ? [p.agent] : [])));
    const names = await guestNames(companyId, origins);
    return origins.map((origin) => {
      const parts = [origin, ...later.filter((p) => p.origin_call_id === origin.call_id && p.call_id !== origin.call_id)].sort(
        (x, y) => Number(x.created_at) - Number(y.created_at),
      );
      const noted = parts.filter((p) => p.agent_note !== null && p.agent_note_at !== null).at(-1);
      const rated = parts.filter((p) => p.rating_answers).at(-1);
      const answeredBy = parts.filter((p) => p.agent_answered_at !== null && p.agent).at(-1)?.agent ?? null;
      const talk = chainTalkMs(parts);
      return {
        callId: origin.call_id,
        guestUsername: origin.guest_username,
        guestName: names.get(origin.call_id) ?? null,
        agentName: answeredBy === null ? null : (agents.get(answeredBy) ?? answeredBy.split('@')[0] ?? answeredBy),
        assignmentName: origin.assignment_name ?? null,
        createdAt: iso(origin.created_at),
        answered: parts.some((p) => p.call_answered_at !== null),
        talkSeconds: talk === null ? null : Math.round(talk / 100) / 10,
        parts: parts.length,
        note: noted ? { text: noted.agent_note ?? '', by: noted.note_author ?? null, at: iso(noted.agent_note_at ?? 0) } : null,
        rating: rated?.rating_answers ? { score: ratingScore(rated.rating_answers), comment: ratingComment(rated.rating_answers) } : null,
      };
    });
  }

  /** Every part of the company's accepted calls, with what a conversation's summary reads. */
  function partsQuery(companyId: number) {
    return db
      .selectFrom('call_reports')
      .leftJoin('assignments', 'assignments.id', 'call_reports.assignment_id')
      .leftJoin('users', 'users.id', 'call_reports.agent_note_by')
      .leftJoin('rating_submissions', 'rating_submissions.call_report_id', 'call_reports.id')
      .select([
        'rating_submissions.answers as rating_answers',
        'call_reports.call_id',
        'call_reports.origin_call_id',
        'call_reports.guest_username',
        'call_reports.created_at',
        'call_reports.call_initiated_at',
        'call_reports.call_answered_at',
        'call_reports.call_ended_at',
        'call_reports.guest_exit_at',
        'call_reports.agent_note',
        'call_reports.agent_note_at',
        'call_reports.agent',
        'call_reports.agent_answered_at',
        'assignments.name as assignment_name',
        'users.name as note_author',
      ])
      .where('call_reports.company_id', '=', companyId)
      .where('call_reports.status', '=', 'ok');
  }

  /** The first call of each conversation (a call that continues none). */
  function originsQuery(companyId: number) {
    return partsQuery(companyId).where((eb) =>
      eb.or([eb('call_reports.origin_call_id', 'is', null), eb('call_reports.origin_call_id', '=', eb.ref('call_reports.call_id'))]),
    );
  }

  /** The console users' names by their bare XMPP address (what a report's `agent` holds). */
  async function agentNames(companyId: number, jids: readonly string[]): Promise<Map<string, string>> {
    const byUsername = new Map(jids.map((jid) => [jid.split('@')[0] ?? jid, jid]));
    if (!byUsername.size) return new Map();
    const users = await db
      .selectFrom('users')
      .select(['name', 'xmpp_username'])
      .where('company_id', '=', companyId)
      .where('xmpp_username', 'in', [...byUsername.keys()])
      .execute();
    return new Map(users.map((u) => [byUsername.get(u.xmpp_username) ?? u.xmpp_username, u.name]));
  }

  /** The name each conversation's guest gave on the company's welcome form, at the latest by the call. */
  async function guestNames(companyId: number, origins: ReadonlyArray<{ call_id: string; guest_username: string; created_at: number }>): Promise<Map<string, string>> {
    if (!origins.length) return new Map();
    const form = await db.selectFrom('forms').select('id').where('company_id', '=', companyId).where('kind', '=', 'welcome').executeTakeFirst();
    if (!form) return new Map();
    const submissions = await db
      .selectFrom('form_submissions')
      .select(['guest_username', 'answers', 'created_at'])
      .where('company_id', '=', companyId)
      .where('form_id', '=', form.id)
      .where('guest_username', 'in', [...new Set(origins.map((o) => o.guest_username))])
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const names = new Map<string, string>();
    for (const origin of origins) {
      const latest = submissions.filter((s) => s.guest_username === origin.guest_username && Number(s.created_at) <= Number(origin.created_at)).at(-1);
      const name = latest ? guestNameAnswer(JSON.parse(latest.answers) as Record<string, unknown>) : null;
      if (name) names.set(origin.call_id, name);
    }
    return names;
  }
}
