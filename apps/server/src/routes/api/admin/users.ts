import { AdminUser, AdminUserCreate, AdminUserUpdate, DataEnvelope, IdParams, ProfileImageAnswer, ProfileImageBody } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminUsersRepository } from '../../../repositories/adminUsers.ts';
import type { Services } from '../../../services/index.ts';
import { hashPassword } from '../../../services/passwords.ts';
import { normaliseEmail } from '../../../services/emailAddress.ts';
import { setProfileImage } from '../../../services/profileImages.ts';
import { applyMembership, userChanges } from '../../../services/roomMembership.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';


function adminUserRoutes(app: App, services: Services): void {
  const repo = createAdminUsersRepository(services.db.kysely, services.now);
  const security = [{ consoleSession: [] }];
  const IdAnswer = DataEnvelope(Type.Object({ id: Type.Integer() }));

  app.get(
    '/users',
    {
      // Supervisors read the team too (to book appointments for an agent); only admins change it.
      config: { role: 'supervisor' },
      schema: {
        tags: ['admin'],
        summary: 'The console users (admins, supervisors, agents) of the company; supervisors and admins',
        security,
        response: { 200: DataEnvelope(Type.Object({ users: Type.Array(AdminUser) })), ...errors(401, 403) },
      },
    },
    async (request) => ({ data: { users: await repo.list(consoleUserOf(request).companyId) } }),
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a console user; the password is stored as a scrypt hash',
        security,
        body: AdminUserCreate,
        response: { 201: IdAnswer, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const email = normaliseEmail(request.body.email);
      if (await repo.emailTaken(email)) return fail(reply, 409, 'email: already in use');
      const r = await repo.create(companyId, {
        email,
        name: request.body.name.trim(),
        role: request.body.role,
        passwordHash: await hashPassword(request.body.password),
        assignmentIds: [...new Set(request.body.assignmentIds ?? [])],
      });
      if ('badAssignmentId' in r) return fail(reply, 400, `assignmentIds: no assignment ${r.badAssignmentId} in this company`);
      // the new agent gets into the guest rooms that already exist for its assignments
      const created = await services.repos.users.byId(r.id);
      if (created) {
        const changes = userChanges(created.xmppUsername, [], await services.repos.users.assignmentIds(r.id));
        await applyMembership(services, changes).catch((err: unknown) => request.log.error({ err }, 'guest room membership not updated'));
      }
      return reply.code(201).send({ data: r });
    },
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a console user (a new password ends its sessions)',
        security,
        params: IdParams,
        body: AdminUserUpdate,
        response: { 200: IdAnswer, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const { id } = request.params;
      const b = request.body;
      const current = await repo.roleOf(me.companyId, id);
      if (!current) return fail(reply, 404, 'id: no such user');
      if (b.role !== undefined && b.role !== 'admin' && current === 'admin' && (await repo.adminCount(me.companyId)) <= 1) {
        return fail(reply, 409, 'role: the company would have no admin left');
      }
      const email = b.email !== undefined ? normaliseEmail(b.email) : undefined;
      if (email !== undefined && (await repo.emailTaken(email, id))) return fail(reply, 409, 'email: already in use');
      const before = await services.repos.users.assignmentIds(id);
      const r = await repo.update(me.companyId, id, {
        email,
        name: b.name?.trim(),
        role: b.role,
        passwordHash: b.password !== undefined ? await hashPassword(b.password) : undefined,
        assignmentIds: b.assignmentIds ? [...new Set(b.assignmentIds)] : undefined,
      });
      if (r === 'notFound') return fail(reply, 404, 'id: no such user');
      if (typeof r === 'object') return fail(reply, 400, `assignmentIds: no assignment ${r.badAssignmentId} in this company`);
      const changed = await services.repos.users.byId(id);
      if (changed && b.assignmentIds) {
        const changes = userChanges(changed.xmppUsername, before, await services.repos.users.assignmentIds(id));
        await applyMembership(services, changes).catch((err: unknown) => request.log.error({ err }, 'guest room membership not updated'));
      }
      return { data: { id } };
    },
  );

  app.put(
    '/users/:id/profile-image',
    {
      schema: {
        tags: ['admin'],
        summary: "Set or clear a console user's picture (an image of the company, at most 1 MB): guests see it as the agent's avatar",
        security,
        params: IdParams,
        body: ProfileImageBody,
        response: { 200: DataEnvelope(ProfileImageAnswer), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const { id } = request.params;
      if (!(await repo.roleOf(me.companyId, id))) return fail(reply, 404, 'id: no such user');
      const r = await setProfileImage(services, me.companyId, id, request.body.uploadId);
      if (!r.ok) return fail(reply, r.status, r.message);
      return { data: { profileImageUrl: r.profileImageUrl } };
    },
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a console user (not yourself)',
        security,
        params: IdParams,
        response: { 200: DataEnvelope(Type.Object({ deleted: Type.Boolean() })), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      if (request.params.id === me.id) return fail(reply, 409, 'id: you cannot delete yourself');
      if (!(await repo.remove(me.companyId, request.params.id))) return fail(reply, 404, 'id: no such user');
      return { data: { deleted: true } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminUserRoutes);
