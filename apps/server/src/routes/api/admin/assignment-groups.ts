import { AdminAssignmentGroup, AdminAssignmentGroupBody, DataEnvelope, IdParams } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminAssignmentsRepository } from '../../../repositories/adminAssignments.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

function adminAssignmentGroupRoutes(app: App, services: Services): void {
  const repo = createAdminAssignmentsRepository(services.db.kysely, services.now);
  const security = [{ consoleSession: [] }];
  const IdAnswer = DataEnvelope(Type.Object({ id: Type.Integer() }));

  app.get(
    '/assignment-groups',
    {
      schema: {
        tags: ['admin'],
        summary: 'The assignment groups of the admin’s company',
        security,
        response: { 200: DataEnvelope(Type.Object({ groups: Type.Array(AdminAssignmentGroup) })), ...errors(401, 403) },
      },
    },
    async (request) => ({ data: { groups: await repo.listGroups(consoleUserOf(request).companyId) } }),
  );

  app.post(
    '/assignment-groups',
    {
      schema: { tags: ['admin'], summary: 'Create an assignment group', security, body: AdminAssignmentGroupBody, response: { 201: IdAnswer, ...errors(400, 401, 403) } },
    },
    async (request, reply) => {
      const r = await repo.saveGroup(consoleUserOf(request).companyId, null, request.body);
      if (r === 'notFound') return fail(reply, 404, 'id: no such group');
      if ('badAssignmentId' in r) return fail(reply, 400, `assignmentIds: no assignment ${r.badAssignmentId} in this company`);
      return reply.code(201).send({ data: r });
    },
  );

  app.put(
    '/assignment-groups/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change an assignment group (its members are replaced)',
        security,
        params: IdParams,
        body: AdminAssignmentGroupBody,
        response: { 200: IdAnswer, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const r = await repo.saveGroup(consoleUserOf(request).companyId, request.params.id, request.body);
      if (r === 'notFound') return fail(reply, 404, 'id: no such group');
      if ('badAssignmentId' in r) return fail(reply, 400, `assignmentIds: no assignment ${r.badAssignmentId} in this company`);
      return { data: r };
    },
  );

  app.delete(
    '/assignment-groups/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete an assignment group (its assignments stay)',
        security,
        params: IdParams,
        response: { 200: DataEnvelope(Type.Object({ deleted: Type.Boolean() })), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await repo.removeGroup(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such group');
      return { data: { deleted: true } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminAssignmentGroupRoutes);
