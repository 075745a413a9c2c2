import { CompanyDetails } from '@lobby/contracts';
import { Type, type Static } from '@sinclair/typebox';
import type { CompanyRow } from '../repositories/companies.ts';
import type { Services } from './index.ts';
import { isP2P } from './callMethod.ts';

/**
 * What `GET /api/company/details` answers, and what the guest page carries with its first screen
 * (web/firstScreen.ts): the details plus two deployment settings, whether automated browsers may call
 * (LOBBY_ALLOW_AUTOMATION) and where errors are reported (LOBBY_SENTRY_DSN).
 * No server path or version is public: recordings are named and started by the server (docs/security.md).
 */
export const CompanyDetailsAnswer = Type.Composite([
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
export type CompanyDetailsAnswer = Static<typeof CompanyDetailsAnswer>;

export async function companyDetailsAnswer(services: Services, company: CompanyRow): Promise<CompanyDetailsAnswer> {
  const details = await services.repos.companies.details(company);
  // nothing records a p2p call: the guest is never shown a recording notice for one (docs/protocol.md "p2p")
  const recording = isP2P(details) ? { recordCalls: false } : {};
  return { ...details, ...recording, allowAutomation: services.config.allowAutomation, sentryDsn: services.config.sentryDsn };
}
