import type { ReportDay, Reports, ServiceFilter } from '@lobby/contracts';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

const DAY_MS = 86_400_000;

/**
 * Narrows a query of call_reports to one service: `widget`, or `talk` (the full page; reports without a
 * service type, made before the widget existed or by clients that do not say, count as talk).
 */
export function withService<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  service: ServiceFilter,
  column = 'service_type',
): SelectQueryBuilder<DB, TB, O> {
  // the column name is ours (never the caller's input), so the reference is safe
  const ref = sql.ref(column);
  if (service === 'widget') return q.where(sql<boolean>`${ref} = ${'widget'}`);
  if (service === 'talk') return q.where(sql<boolean>`(${ref} is null or ${ref} <> ${'widget'})`);
  return q;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Acc {
  calls: number;
  answered: number;
  abandoned: number;
  booked: number;
  wait: number[];
  talk: number[];
  scores: number[];
}
const emptyAcc = (): Acc => ({ calls: 0, answered: 0, abandoned: 0, booked: 0, wait: [], talk: [], scores: [] });
const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : 0);

/**
 * The score of one rating: the plain `{score}`, or the mean of the 1..5 numbers a rating form's stars and
 * emojies fields gave; null when it has none.
 */
export function ratingScore(answersJson: string): number | null {
  let answers: unknown;
  try {
    answers = JSON.parse(answersJson);
  } catch {
    return null;
  }
  if (!answers || typeof answers !== 'object') return null;
  const values = Object.values(answers as Record<string, unknown>).filter(
    (v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5,
  );
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}
const avg = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length / 1000) * 10) / 10 : 0);

type ReportRow = {
  created_at: number;
  call_id: string;
  origin_call_id: string | null;
  call_initiated_at: number | null;
  call_answered_at: number | null;
  call_ended_at: number | null;
  guest_exit_at: number | null;
  /** read by the daily counts only (chainTalkMs's other callers leave it out) */
  booked_at?: number | null;
};

/** SQLite's default limit of bound parameters is 32766; stay far below it. */
const CHUNK = 500;

/**
 * Talk time of one conversation (ms), or null when it has no answered part that ended. A call put on hold
 * and resumed is a chain of reports (POST /call-report/hold-call): each part talks from its answer to its
 * end; a held part has no end of its own, so it ends when the next part began (the resume). The start of
 * a hold is not recorded, so a held part's talk includes the hold itself.
 */
export function chainTalkMs(parts: ReportRow[]): number | null {
  const sorted = [...parts].sort((a, b) => Number(a.created_at) - Number(b.created_at));
  let talk = 0;
  let any = false;
  sorted.forEach((part, i) => {
    if (part.call_answered_at === null) return;
    const next = sorted[i + 1];
    const end = part.call_ended_at ?? part.guest_exit_at ?? (next ? next.created_at : null);
    if (end === null) return;
    talk += Math.max(0, Number(end) - Number(part.call_answered_at));
    any = true;
  });
  return any ? talk : null;
}

/**
 * Call statistics of one company from call_reports, per UTC day of the call's creation.
 * - calls: reports with status ok (quota and blocked refusals are not calls);
 * - answered: an agent answered (call_answered_at);
 * - booked: not answered, the guest left the queue by booking a time (docs/guest-journey.md "Booking a time instead");
 * - abandoned: not answered nor booked, and the guest left or the call ended (or it is older than `staleMs`);
 * - wait: answered − initiated (or created); talk: see chainTalkMs (the resumed parts of a call count);
 * - a call resumed after hold (a report whose origin_call_id names an earlier call) is not a new call;
 * - ratings: rating submissions of those calls, by the day of the call;
 * - service: `talk` (reports without a service type included), `widget`, or `all`.
 */
/** A company, its first and last day (YYYY-MM-DD, UTC), now, the age past which an open call counts abandoned, the service. */
type RangeArgs = [companyId: number, fromDay: string, toDay: string, now: number, staleMs: number, service?: ServiceFilter];

export function createReportsRepository(db: Kysely<Database>) {
  return {
    /** The counts of each day and of the whole range (daily() formats them; the wall board reads today's). */
    async accumulate(...[companyId, fromDay, toDay, now, staleMs, service = 'all']: RangeArgs): Promise<{ byDay: Map<string, Acc>; total: Acc }> {
      const from = Date.parse(`${fromDay}T00:00:00Z`);
      const to = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS;
      const columns = ['created_at', 'call_id', 'origin_call_id', 'call_initiated_at', 'call_answered_at', 'call_ended_at', 'guest_exit_at', 'booked_at'] as const;
      const rows: ReportRow[] = await db
        .selectFrom('call_reports')
        .select(columns)
        .where('company_id', '=', companyId)
        .where('status', '=', 'ok')
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .$call((q) => withService(q, service))
        .execute();
      // the conversations that started in the range, and every later part of them (a part may fall after it)
      const chains = new Map<string, ReportRow[]>();
      for (const r of rows) if (r.origin_call_id === null || r.origin_call_id === r.call_id) chains.set(r.call_id, [r]);
      const origins = [...chains.keys()];
      for (let i = 0; i < origins.length; i += CHUNK) {
        const parts = await db
          .selectFrom('call_reports')
          .select(columns)
          .where('company_id', '=', companyId)
          .where('origin_call_id', 'in', origins.slice(i, i + CHUNK))
          .execute();
        for (const p of parts) if (p.call_id !== p.origin_call_id) chains.get(p.origin_call_id ?? '')?.push(p);
      }
      const ratings = await db
        .selectFrom('rating_submissions')
        .innerJoin('call_reports', 'call_reports.id', 'rating_submissions.call_report_id')
        .select(['call_reports.created_at', 'rating_submissions.answers'])
        .where('rating_submissions.company_id', '=', companyId)
        .where('call_reports.company_id', '=', companyId)
        .where('call_reports.created_at', '>=', from)
        .where('call_reports.created_at', '<', to)
        .$call((q) => withService(q, service, 'call_reports.service_type'))
        .execute();
      const byDay = new Map<string, Acc>();
      for (let d = from; d < to; d += DAY_MS) byDay.set(dayOf(d), emptyAcc());
      const total = emptyAcc();
      for (const parts of chains.values()) {
        const r = parts[0];
        if (!r) continue;
        const created = Number(r.created_at);
        const acc = byDay.get(dayOf(created));
        if (!acc) continue;
        const answered = r.call_answered_at !== null ? Number(r.call_answered_at) : null;
        const ended = r.call_ended_at ?? r.guest_exit_at;
        const talk = chainTalkMs(parts);
        for (const a of [acc, total]) {
          a.calls += 1;
          if (answered !== null) {
            a.answered += 1;
            a.wait.push(Math.max(0, answered - Number(r.call_initiated_at ?? created)));
            if (talk !== null) a.talk.push(talk);
          } else if ((r.booked_at ?? null) !== null) {
            a.booked += 1;
          } else if (ended !== null || now - created > staleMs) {
            a.abandoned += 1;
          }
        }
      }
      for (const r of ratings) {
        const score = ratingScore(r.answers);
        const acc = byDay.get(dayOf(Number(r.created_at)));
        if (score === null || !acc) continue;
        acc.scores.push(score);
        total.scores.push(score);
      }
      return { byDay, total };
    },

    async daily(...args: RangeArgs): Promise<Reports> {
      const [, fromDay, toDay, , , service = 'all'] = args;
      const { byDay, total } = await this.accumulate(...args);
      const days: ReportDay[] = [...byDay.entries()].map(([day, a]) => ({
        day,
        calls: a.calls,
        answered: a.answered,
        abandoned: a.abandoned,
        booked: a.booked,
        avgWaitSeconds: avg(a.wait),
        avgTalkSeconds: avg(a.talk),
        ratings: a.scores.length,
        avgRating: mean(a.scores),
      }));
      return {
        from: fromDay,
        to: toDay,
        service,
        totals: { calls: total.calls, answered: total.answered, abandoned: total.abandoned, booked: total.booked, avgWaitSeconds: avg(total.wait), avgTalkSeconds: avg(total.talk), ratings: total.scores.length, avgRating: mean(total.scores) },
        days,
      };
    },
  };
}
