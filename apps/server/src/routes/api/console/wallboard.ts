import { DataEnvelope, Wallboard } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createReportsRepository, dayOf } from '../../../repositories/reports.ts';
import { waitingByAssignment } from '../../../repositories/wallboard.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * The supervisors' wall board (docs/api.md "Wall board"): calls waiting and the longest wait per
 * assignment, the agents by state, today's answered, abandoned and booked calls (counted as the reports
 * count them) and the service level. The console reads it again on each `wallboard` event.
 */
function wallboardRoutes(app: App, services: Services): void {
  const reports = createReportsRepository(services.db.kysely);
  app.get(
    '/wallboard',
    {
      schema: {
        tags: ['console'],
        summary: 'The wall board: calls waiting per assignment, agents by state, today’s counts and service level; supervisors and admins',
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(Wallboard), ...errors(401, 403) },
      },
    },
    async (request) => {
      const { companyId } = consoleUserOf(request);
      const now = services.now();
      const staleMs = services.config.openCallHours * 3600_000;
      const today = dayOf(now);
      const [snapshot, waiting, agents, counts] = await Promise.all([
        services.companySnapshots.get(companyId),
        waitingByAssignment(services.db.kysely, companyId, now - staleMs),
        services.roundRobin.agentStates(companyId),
        reports.accumulate(companyId, today, today, now, staleMs),
      ]);
      const target = snapshot?.company.settings.serviceLevelSeconds ?? 60;
      const byAssignment = new Map(waiting.map((w) => [w.assignmentId, w]));
      const queue = (assignmentId: number | null, name: string) => {
        const w = byAssignment.get(assignmentId);
        return { assignmentId, name, waiting: w?.waiting ?? 0, longestWaitSince: w ? new Date(w.oldest).toISOString() : null };
      };
      const queues = (snapshot?.assignments ?? []).map((a) => queue(a.id, a.name));
      // appointment calls wait for their own agent, outside any assignment
      if (byAssignment.has(null)) queues.push(queue(null, ''));
      const { total } = counts;
      const within = total.wait.filter((ms) => ms <= target * 1000).length;
      const settled = total.answered + total.abandoned;
      return {
        data: {
          queues,
          agents,
          today: {
            day: today,
            answered: total.answered,
            abandoned: total.abandoned,
            booked: total.booked,
            serviceLevel: settled > 0 ? within / settled : null,
            serviceLevelSeconds: target,
          },
          at: new Date(now).toISOString(),
        },
      };
    },
  );
}

export default routes({ access: 'console', role: 'supervisor' }, wallboardRoutes);
