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
}
const emptyAcc = (): Acc => ({ calls: 0, answered: 0, abandoned: 0, wait: [], talk: [] });
const avg = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length / 1000) * 10) / 10 : 0);

/**
 * Call statistics of one company from call_reports, per UTC day of the call's creation.
 * - calls: reports with status ok (quota and blocked refusals are not calls);
 * - answered: an agent answered (call_answered_at);
 * - abandoned: not answered, and the guest left or the call ended (or it is older than `staleMs`);
 * - wait: answered − initiated (or created); talk: ended (or guest exit) − answered.
 */
export function createReportsRepository(db: Kysely<Database>) {
  return {
    async daily(companyId: number, fromDay: string, toDay: string, now: number, staleMs: number): Promise<Reports> {
      const from = Date.parse(`${fromDay}T00:00:00Z`);
      const to = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS;
      const rows = await db
        .selectFrom('call_reports')
        .select(['created_at', 'call_initiated_at', 'call_answered_at', 'call_ended_at', 'guest_exit_at'])
        .where('company_id', '=', companyId)
        .where('status', '=', 'ok')
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .execute();
      const byDay = new Map<string, Acc>();
      for (let d = from; d < to; d += DAY_MS) byDay.set(dayOf(d), emptyAcc());
      const total = emptyAcc();
      for (const r of rows) {
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
      const days: ReportDay[] = [...byDay.entries()].map(([day, a]) => ({
        day,
        calls: a.calls,
        answered: a.answered,
        abandoned: a.abandoned,
        avgWaitSeconds: avg(a.wait),
        avgTalkSeconds: avg(a.talk),
      }));
      return {
        from: fromDay,
        to: toDay,
        totals: { calls: total.calls, answered: total.answered, abandoned: total.abandoned, avgWaitSeconds: avg(total.wait), avgTalkSeconds: avg(total.talk) },
        days,
      };
    },
  };
}
