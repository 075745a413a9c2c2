import { DataEnvelope, Quota, QuotaInput, QuotaList, RuleDeleted, RuleIdParams } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { DuplicateRow } from '../../../repositories/forms.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail, written } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** /api/admin/quotas: accepted calls per company and period (one quota per period). Admins, own company only. */
function adminQuotaRoutes(app: App, services: Services): void {
  const rules = services.repos.guestRules;
  const meta = { tags: ['admin'], security: [{ consoleSession: [] }] };
  const quotaById = async (companyId: number, id: number) => (await rules.quotas(companyId, services.now())).find((q) => q.id === id);

  app.get(
    '/quotas',
    { schema: { ...meta, summary: "The company's quotas with this period's use", response: { 200: DataEnvelope(QuotaList), ...errors(401, 403) } } },
    async (request) => ({ data: { quotas: await rules.quotas(consoleUserOf(request).companyId, services.now()) } }),
  );

  app.post(
    '/quotas',
    { schema: { ...meta, summary: 'Add the quota of a period', body: QuotaInput, response: { 201: DataEnvelope(Quota), ...errors(400, 401, 403, 409) } } },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      try {
        const id = await rules.addQuota(companyId, request.body.period, request.body.limit, services.now());
        return await reply.code(201).send({ data: written(await quotaById(companyId, id)) });
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, `period: the company already has a ${request.body.period} quota, edit it`);
        throw err;
      }
    },
  );

  app.put(
    '/quotas/:id',
    { schema: { ...meta, summary: 'Change a quota', params: RuleIdParams, body: QuotaInput, response: { 200: DataEnvelope(Quota), ...errors(400, 401, 403, 404, 409) } } },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      try {
        if (!(await rules.updateQuota(companyId, request.params.id, request.body.period, request.body.limit))) return await fail(reply, 404, 'id: no such quota');
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, `period: the company already has a ${request.body.period} quota`);
        throw err;
      }
      return { data: written(await quotaById(companyId, request.params.id)) };
    },
  );

  app.delete(
    '/quotas/:id',
    { schema: { ...meta, summary: 'Delete a quota', params: RuleIdParams, response: { 200: DataEnvelope(RuleDeleted), ...errors(400, 401, 403, 404) } } },
    async (request, reply) => {
      if (!(await rules.removeQuota(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such quota');
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminQuotaRoutes);
