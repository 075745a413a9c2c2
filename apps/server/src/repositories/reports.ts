import type { ReportDay, Reports } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const DAY_MS = 86_400_000;

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Acc {
  calls: number;
  answered: number;
  abandoned: number;
  wait: number[];
  talk: number[];
  scores: number[];
}
const emptyAcc = (): Acc => ({ calls: 0, answered: 0, abandoned: 0, wait: [], talk: [], scores: [] });
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

/**
 * Call statistics of one company from call_reports, per UTC day of the call's creation.
 * - calls: reports with status ok (quota and blocked refusals are not calls);
 * - answered: an agent answered (call_answered_at);
 * - abandoned: not answered, and the guest left or the call ended (or it is older than `staleMs`);
 * - wait: answered − initiated (or created); talk: ended (or guest exit) − answered;
 * - a call resumed after hold (a report whose origin_call_id names an earlier call) is not a new call;
 * - ratings: rating submissions of those calls, by the day of the call.
 */
export function createReportsRepository(db: Kysely<Database>) {
  return {
    async daily(companyId: number, fromDay: string, toDay: string, now: number, staleMs: number): Promise<Reports> {
      const from = Date.parse(`${fromDay}T00:00:00Z`);
      const to = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS;
      const rows = await db
        .selectFrom('call_reports')
        .select(['created_at', 'call_id', 'origin_call_id', 'call_initiated_at', 'call_answered_at', 'call_ended_at', 'guest_exit_at'])
        .where('company_id', '=', companyId)
        .where('status', '=', 'ok')
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .execute();
      const ratings = await db
        .selectFrom('rating_submissions')
        .innerJoin('call_reports', 'call_reports.id', 'rating_submissions.call_report_id')
        .select(['call_reports.created_at', 'rating_submissions.answers'])
        .where('rating_submissions.company_id', '=', companyId)
        .where('call_reports.company_id', '=', companyId)
        .where('call_reports.created_at', '>=', from)
        .where('call_reports.created_at', '<', to)
        .execute();
      const byDay = new Map<string, Acc>();
      for (let d = from; d < to; d += DAY_MS) byDay.set(dayOf(d), emptyAcc());
      const total = emptyAcc();
      for (const r of rows) {
        if (r.origin_call_id !== null && r.origin_call_id !== r.call_id) continue;
        const created = Number(r.created_at);
        const acc = byDay.get(dayOf(created));
        if (!acc) continue;
        const answered = r.call_answered_at !== null ? Number(r.call_answered_at) : null;
        const ended = r.call_ended_at ?? r.guest_exit_at;
        for (const a of [acc, total]) {
          a.calls += 1;
          if (answered !== null) {
            a.answered += 1;
            a.wait.push(Math.max(0, answered - Number(r.call_initiated_at ?? created)));
            if (ended !== null) a.talk.push(Math.max(0, Number(ended) - answered));
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
      const days: ReportDay[] = [...byDay.entries()].map(([day, a]) => ({
        day,
        calls: a.calls,
        answered: a.answered,
        abandoned: a.abandoned,
        avgWaitSeconds: avg(a.wait),
        avgTalkSeconds: avg(a.talk),
        ratings: a.scores.length,
        avgRating: mean(a.scores),
      }));
      return {
        from: fromDay,
        to: toDay,
        totals: { calls: total.calls, answered: total.answered, abandoned: total.abandoned, avgWaitSeconds: avg(total.wait), avgTalkSeconds: avg(total.talk), ratings: total.scores.length, avgRating: mean(total.scores) },
        days,
      };
    },
  };
}
