import { DataEnvelope, Reports, ReportsQuery, type ServiceFilter } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createReportsRepository, dayOf } from '../../../repositories/reports.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

/** CSV field: quoted when needed; a leading =, +, - or @ is defused (spreadsheet formula injection). */
export function csvField(v: string | number): string {
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function reportsCsv(r: Reports): string {
  const head = ['day', 'calls', 'answered', 'abandoned', 'booked', 'avg_wait_seconds', 'avg_talk_seconds', 'ratings', 'avg_rating'];
  const lines = [head.join(',')];
  for (const d of r.days) lines.push([d.day, d.calls, d.answered, d.abandoned, d.booked, d.avgWaitSeconds, d.avgTalkSeconds, d.ratings, d.avgRating].map(csvField).join(','));
  const t = r.totals;
  lines.push(['total', t.calls, t.answered, t.abandoned, t.booked, t.avgWaitSeconds, t.avgTalkSeconds, t.ratings, t.avgRating].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function consoleReportRoutes(app: App, services: Services): void {
  const repo = createReportsRepository(services.db.kysely);
  const security = [{ consoleSession: [] }];

  // The schema checks the calendar (format date); Date.parse still guards what JS dates cannot hold.
  function range(q: ReportsQuery): { from: string; to: string } | string {
    const to = q.to ?? dayOf(services.now());
    const b = Date.parse(`${to}T00:00:00Z`);
    if (!Number.isFinite(b)) return 'to: not a date';
    const from = q.from ?? dayOf(b - 13 * DAY_MS);
    const a = Date.parse(`${from}T00:00:00Z`);
    if (!Number.isFinite(a)) return 'from: not a date';
    if (a > b) return 'from: must not be after to';
    if ((b - a) / DAY_MS >= MAX_DAYS) return `from: at most ${MAX_DAYS} days`;
    return { from, to };
  }
  const get = async (companyId: number, r: { from: string; to: string }, service: ServiceFilter = 'all') =>
    repo.daily(companyId, r.from, r.to, services.now(), services.config.openCallHours * 3600_000, service);

  app.get(
    '/reports',
    {
      schema: {
        tags: ['console'],
        summary: 'Calls per day (UTC): answered, abandoned, average wait and talk time, ratings; `service` talk | widget | all; supervisors and admins',
        security,
        querystring: ReportsQuery,
        response: { 200: DataEnvelope(Reports), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const r = range(request.query);
      if (typeof r === 'string') return fail(reply, 400, r);
      return { data: await get(consoleUserOf(request).companyId, r, request.query.service) };
    },
  );

  app.get(
    '/reports.csv',
    {
      schema: {
        tags: ['console'],
        summary: 'The same report as CSV (one row per day and a total row)',
        security,
        querystring: ReportsQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv' }), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const r = range(request.query);
      if (typeof r === 'string') return fail(reply, 400, r);
      const report = await get(consoleUserOf(request).companyId, r, request.query.service);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="lobby-${request.query.service ?? 'all'}-calls-${r.from}-to-${r.to}.csv"`)
        .send(reportsCsv(report));
    },
  );
}

export default routes({ access: 'console', role: 'supervisor' }, consoleReportRoutes);
