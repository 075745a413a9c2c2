// Company details: the settings of the guest experience (docs/guest-journey.md), as the server
// answers GET /api/company/details (contracts' CompanyDetails, plus the deployment's two switches).
import { apiRequest } from '@lobby/call/http';
import type { CompanyDetails, Schedule } from '@lobby/contracts';
import { FIRST_SCREEN_DATA_ID, type FirstScreenData } from '@lobby/contracts/firstScreen';

export type { Assignment, AssignmentFilter, AssignmentGroup, FormDefinition, FormField } from '@lobby/contracts';

/** Opening hours (contracts `Schedule`); null = always open. */
export type CompanySchedule = Schedule;

/** The company message fields; each has an optional `_ar` variant. */
export { MESSAGE_KEYS as COMPANY_MESSAGE_KEYS, type MessageKey as CompanyMessageKey } from '@lobby/contracts/messages';

/**
 * The company as the guest reads it: the server sends every field of CompanyDetails (defaults filled
 * in); the app reads them as optional so that its dev fixtures and tests give only what they show.
 */
export type Company = Pick<CompanyDetails, 'id' | 'activated' | 'name'> &
  Partial<Omit<CompanyDetails, 'id' | 'activated' | 'name'>> & {
    /** The deployment's switch for automated browsers (LOBBY_ALLOW_AUTOMATION; docs/guest-journey.md "Bots"). */
    allowAutomation?: boolean;
    /** The deployment's error-reporting DSN (LOBBY_SENTRY_DSN); null or absent: nothing is reported. */
    sentryDsn?: string | null;
  };

/**
 * The details the page carries with its first screen (docs/architecture.md "The guest page"): the server
 * put them in a JSON block, as `GET /api/company/details` answers them. Null on a page without one.
 */
export function pageFirstScreen(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): FirstScreenData<Company> | null {
  const text = doc?.getElementById(FIRST_SCREEN_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<FirstScreenData<Company>>;
    if (!data.company || typeof data.company !== 'object' || (data.language !== 'en' && data.language !== 'ar')) return null;
    return { company: data.company, language: data.language };
  } catch {
    return null;
  }
}

let pageDetailsUsed = false;

/**
 * `GET /api/company/details`: the company of this site (the server knows it from the host). The first
 * call on a page that carries the details answers those, with no request.
 */
export function fetchCompanyDetails(signal?: AbortSignal): Promise<Company> {
  const inPage = pageDetailsUsed ? null : pageFirstScreen();
  pageDetailsUsed = true;
  if (inPage) return Promise.resolve(inPage.company);
  return apiRequest<Company>('/company/details', { signal });
}
