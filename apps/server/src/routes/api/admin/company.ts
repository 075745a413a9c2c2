import { AdminCompany, AdminCompanyUpdate, DataEnvelope } from '@lobby/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createAdminCompanyRepository } from '../../../repositories/adminCompany.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { callMethodConflict } from '../../../services/callMethod.ts';
import { scheduleProblem } from './schedule.ts';

const ALLOWED = new Set(Object.keys(AdminCompanyUpdate.properties));

/** Unknown keys are an error naming them (Ajv would silently drop them). */
async function rejectUnknownKeys(request: FastifyRequest, reply: FastifyReply) {
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((k) => !ALLOWED.has(k));
    if (unknown !== undefined) return fail(reply, 400, `body/${unknown}: not a company setting`);
  }
  return Promise.resolve(undefined);
}

function adminCompanyRoutes(app: App, services: Services): void {
  const { repos } = services;
  const admin = createAdminCompanyRepository(services.db.kysely);

  async function details(companyId: number) {
    const company = await repos.companies.byId(companyId);
    if (!company) return null;
    const [assignments, assignmentGroups] = await Promise.all([repos.companies.assignments(companyId), repos.companies.assignmentGroups(companyId)]);
    return {
      ...company.settings,
      id: company.id,
      activated: company.activated,
      name: company.name,
      host: company.host,
      assignments,
      assignmentGroups,
    };
  }

  app.get(
    '/company',
    {
      schema: {
        tags: ['admin'],
        summary: "The admin's own company: every company-details field with defaults",
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(AdminCompany), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const data = await details(consoleUserOf(request).companyId);
      if (!data) return fail(reply, 404, 'company: no such company');
      return { data };
    },
  );

  app.put(
    '/company',
    {
      preValidation: rejectUnknownKeys,
      schema: {
        tags: ['admin'],
        summary: "Change some of the admin's own company settings (a partial company-details object); answers the whole company",
        security: [{ consoleSession: [] }],
        body: AdminCompanyUpdate,
        response: { 200: DataEnvelope(AdminCompany), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const current = await repos.companies.byId(companyId);
      const conflict = current && callMethodConflict({ ...current.settings, ...request.body });
      if (conflict) return fail(reply, 400, conflict);
      // the same schedule rules as PUT /admin/schedule (an unknown time zone, a period that ends before it begins)
      const problem = request.body.schedule ? scheduleProblem(request.body.schedule) : null;
      if (problem) return fail(reply, 400, problem);
      if (!(await admin.update(companyId, request.body))) return fail(reply, 404, 'company: no such company');
      const data = await details(companyId);
      if (!data) return fail(reply, 404, 'company: no such company');
      return { data };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminCompanyRoutes);
