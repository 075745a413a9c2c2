import { AdminAssignment, AdminAssignmentBody, DataEnvelope, IdParams } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminAssignmentsRepository } from '../../../repositories/adminAssignments.ts';
import type { Services } from '../../../services/index.ts';
import { agentChanges, applyMembership } from '../../../services/roomMembership.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const Deleted = DataEnvelope(Type.Object({ deleted: Type.Boolean() }));

function adminAssignmentRoutes(app: App, services: Services): void {
  const repo = createAdminAssignmentsRepository(services.db.kysely, services.now);
  const security = [{ consoleSession: [] }];

  app.get(
    '/assignments',
    {
      schema: {
        tags: ['admin'],
        summary: 'The assignments (queues) of the admin’s company, with the agents serving each',
        security,
        response: { 200: DataEnvelope(Type.Object({ assignments: Type.Array(AdminAssignment) })), ...errors(401, 403) },
      },
    },
    async (request) => ({ data: { assignments: await repo.list(consoleUserOf(request).companyId) } }),
  );

  app.post(
    '/assignments',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create an assignment',
        security,
        body: AdminAssignmentBody,
        response: { 201: DataEnvelope(Type.Object({ id: Type.Integer() })), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const r = await repo.create(consoleUserOf(request).companyId, request.body);
      if ('badUserId' in r) return fail(reply, 400, `agentIds: no user ${r.badUserId} in this company`);
      return reply.code(201).send({ data: r });
    },
  );

  app.put(
    '/assignments/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change an assignment (agentIds, when given, replaces the agents serving it)',
        security,
        params: IdParams,
        body: AdminAssignmentBody,
        response: { 200: DataEnvelope(Type.Object({ id: Type.Integer() })), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const before = await services.repos.companies.assignmentAgents(id);
      const r = await repo.update(consoleUserOf(request).companyId, id, request.body);
      if (r === 'notFound') return fail(reply, 404, 'id: no such assignment');
      if (typeof r === 'object') return fail(reply, 400, `agentIds: no user ${r.badUserId} in this company`);
      // agents added (or removed) get into (or out of) the guest rooms that already exist for it
      const changes = agentChanges(id, before, await services.repos.companies.assignmentAgents(id));
      await applyMembership(services, changes).catch((err: unknown) => request.log.error({ err }, 'guest room membership not updated'));
      return { data: { id } };
    },
  );

  app.delete(
    '/assignments/:id',
    {
      schema: { tags: ['admin'], summary: 'Delete an assignment', security, params: IdParams, response: { 200: Deleted, ...errors(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      if (!(await repo.remove(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such assignment');
      return { data: { deleted: true } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminAssignmentRoutes);
