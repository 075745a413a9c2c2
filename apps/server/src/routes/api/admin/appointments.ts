import { Appointment, AppointmentCreate, DataEnvelope, IdParams } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAppointmentsRepository } from '../../../repositories/appointments.ts';
import type { Services } from '../../../services/index.ts';
import { hasRole } from '../../../services/roles.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * Appointments: a reference whose guest link /appointment/{reference} reaches one agent. Admins and
 * supervisors manage the company's; an agent sees and makes only its own.
 */
function adminAppointmentRoutes(app: App, services: Services): void {
  const repo = createAppointmentsRepository(services.db.kysely, services.now);
  const security = [{ consoleSession: [] }];

  app.get(
    '/appointments',
    {
      schema: {
        tags: ['admin'],
        summary: 'Upcoming appointments (from one day ago on): all of the company’s for supervisors and admins, an agent’s own otherwise',
        security,
        response: { 200: DataEnvelope(Type.Object({ appointments: Type.Array(Appointment) })), ...errors(401) },
      },
    },
    async (request) => {
      const me = consoleUserOf(request);
      const since = services.now() - 86_400_000;
      const appointments = await repo.list(me.companyId, since, hasRole(me.role, 'supervisor') ? undefined : me.id);
      return { data: { appointments } };
    },
  );

  app.post(
    '/appointments',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create an appointment; the answer carries its reference and guest link',
        security,
        body: AppointmentCreate,
        response: { 201: DataEnvelope(Appointment), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const b = request.body;
      if (!hasRole(me.role, 'supervisor') && b.agentId !== me.id) return fail(reply, 403, 'agentId: agents make appointments for themselves only');
      if (!(await repo.agentInCompany(me.companyId, b.agentId))) return fail(reply, 400, `agentId: no user ${b.agentId} in this company`);
      const startsAt = Date.parse(b.startsAt);
      if (!Number.isFinite(startsAt)) return fail(reply, 400, 'startsAt: not a date-time');
      const created = await repo.create(me.companyId, {
        agentId: b.agentId,
        startsAt,
        durationMinutes: b.durationMinutes ?? 30,
        note: b.note?.trim() ?? '',
        createdBy: me.id,
      });
      return reply.code(201).send({ data: created });
    },
  );

  app.delete(
    '/appointments/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Cancel an appointment (its link stops working)',
        security,
        params: IdParams,
        response: { 200: DataEnvelope(Type.Object({ deleted: Type.Boolean() })), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const found = await repo.byId(me.companyId, request.params.id);
      if (!found) return fail(reply, 404, 'id: no such appointment');
      if (!hasRole(me.role, 'supervisor') && found.agentId !== me.id) return fail(reply, 403, 'id: not your appointment');
      await repo.remove(me.companyId, request.params.id);
      return { data: { deleted: true } };
    },
  );
}

export default routes({ access: 'console' }, adminAppointmentRoutes);
