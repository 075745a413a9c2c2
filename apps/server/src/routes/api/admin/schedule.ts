import { DataEnvelope, Schedule } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminCompanyRepository } from '../../../repositories/adminCompany.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const ScheduleBody = Type.Object({ schedule: Type.Union([Type.Null(), Schedule]) }, { additionalProperties: false });

export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The first problem of a schedule, as `field: what is wrong`, or null. */
export function scheduleProblem(s: Schedule): string | null {
  if (!validTimeZone(s.timezone)) return `schedule/timezone: unknown time zone ${s.timezone}`;
  for (const [i, p] of s.weekly.entries()) {
    if (p.from >= p.to) return `schedule/weekly/${i}: 'from' must be before 'to'`;
  }
  return null;
}

/** Opening hours (the `schedule` company setting): null = always open. */
function adminScheduleRoutes(app: App, services: Services): void {
  const admin = createAdminCompanyRepository(services.db.kysely);
  const security = [{ consoleSession: [] }];
  const Answer = DataEnvelope(ScheduleBody);

  app.get(
    '/schedule',
    { schema: { tags: ['admin'], summary: 'The opening hours (null: always open)', security, response: { 200: Answer, ...errors(401, 403, 404) } } },
    async (request, reply) => {
      const company = await services.repos.companies.byId(consoleUserOf(request).companyId);
      if (!company) return fail(reply, 404, 'company: no such company');
      return { data: { schedule: company.settings.schedule } };
    },
  );

  app.put(
    '/schedule',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the opening hours: time zone, weekly periods, closed days',
        security,
        body: ScheduleBody,
        response: { 200: Answer, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { schedule } = request.body;
      if (schedule) {
        const problem = scheduleProblem(schedule);
        if (problem) return fail(reply, 400, problem);
        schedule.weekly.sort((a, b) => a.day - b.day || a.from.localeCompare(b.from));
        if (schedule.closedDays) schedule.closedDays = [...new Set(schedule.closedDays)].sort();
      }
      if (!(await admin.update(consoleUserOf(request).companyId, { schedule }))) return fail(reply, 404, 'company: no such company');
      return { data: { schedule } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminScheduleRoutes);
