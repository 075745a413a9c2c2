import { AdminAssignmentGroup, AdminAssignmentGroupBody, DataEnvelope, IdParams } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminAssignmentsRepository } from '../../../repositories/adminAssignments.ts';
import type { Services } from '../../../services/index.ts';
import { requireRole } from '../../../services/roles.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../errors.ts';

export function adminAssignmentGroupRoutes(app: App, services: Services): void {
  const repo = createAdminAssignmentsRepository(services.db.kysely, services.now);
  const base = { config: { access: 'console' as const }, preValidation: requireRole('admin') };
  const security = [{ consoleSession: [] }];
  const IdAnswer = DataEnvelope(Type.Object({ id: Type.Integer() }));

  app.get(
    '/api/admin/assignment-groups',
    {
      ...base,
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
    '/api/admin/assignment-groups',
    {
      ...base,
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
    '/api/admin/assignment-groups/:id',
    {
      ...base,
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
    '/api/admin/assignment-groups/:id',
    {
      ...base,
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
