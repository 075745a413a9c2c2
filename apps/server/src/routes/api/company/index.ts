import { CompanyDetailsQuery, DataEnvelope } from '@lobby/contracts';
import { resolveCompany } from '../../../services/guests.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { CompanyDetailsAnswer, companyDetailsAnswer } from '../../../services/companyDetails.ts';

function companyRoutes(app: App, services: Services): void {
  app.get(
    '/details',
    {
      schema: {
        tags: ['company'],
        summary: 'The guest-facing settings of a company (by ?companyId=, else by Host, else the default company)',
        querystring: CompanyDetailsQuery,
        response: { 200: DataEnvelope(CompanyDetailsAnswer), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const company = await resolveCompany(services, request, request.query.companyId);
      if (!company) return fail(reply, 404, 'companyId: no such company');
      return { data: await companyDetailsAnswer(services, company) };
    },
  );
}

export default routes({ access: 'public' }, companyRoutes);
