import { CompanyDetails, CompanyDetailsQuery, DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { resolveCompany } from '../../../services/guests.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { isP2P } from '../../../services/callMethod.ts';

/**
 * The details plus two deployment settings: whether automated browsers may call (LOBBY_ALLOW_AUTOMATION)
 * and where errors are reported (LOBBY_SENTRY_DSN).
 * No server path or version is public: recordings are named and started by the server (docs/security.md).
 */
const CompanyDetailsAnswer = Type.Composite([
  CompanyDetails,
  Type.Object({
    allowAutomation: Type.Boolean({
      description: 'whether an automated browser (navigator.webdriver) may call; false: the guest app shows its bot screen',
    }),
    sentryDsn: Type.Union([Type.String(), Type.Null()], {
      description: 'where the guest app reports errors and session replays (LOBBY_SENTRY_DSN); null: nothing is reported',
    }),
  }),
]);

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
      const details = await services.repos.companies.details(company);
      // nothing records a p2p call: the guest is never shown a recording notice for one (docs/protocol.md "p2p")
      const recording = isP2P(details) ? { recordCalls: false } : {};
      return { data: { ...details, ...recording, allowAutomation: services.config.allowAutomation, sentryDsn: services.config.sentryDsn } };
    },
  );
}

export default routes({ access: 'public' }, companyRoutes);
