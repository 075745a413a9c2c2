import { isOpen } from '@lobby/contracts';
import type { CompanyRow } from '../repositories/companies.ts';
import type { Services } from './index.ts';

/**
 * The company's rules for opening a call, checked by the server on POST /api/call-report/add (and
 * not only by the guest's browser): the company is activated, open now (schedule), the guest
 * passed the geofence recently when the company requests location, and submitted the welcome form when the
 * company requires one. Blocked and out-of-quota are the report's status (services/guestChecks.ts).
 *
 * `company` is the guest's company as opening the call read it (services/companySnapshots.ts).
 * Answers the refusal as `field: reason` (403), or null when the call may be opened.
 */
export async function callRefusal(
  services: Services,
  guest: { companyId: number; username: string },
  serviceType: string,
  company: CompanyRow | null,
): Promise<string | null> {
  const { repos } = services;
  if (!company?.activated) return 'company: not activated';
  const settings = company.settings;
  if (!isOpen(settings.schedule, new Date(services.now()))) return 'schedule: the company is closed now';
  if (settings.requestLocation && !(await services.geofencePasses.recent(guest.username))) {
    return 'location: no recent successful geofence check of this guest (PUT /api/geo-fence/check)';
  }
  if (settings.welcomeForm) {
    const form = await repos.forms.byKind(company.id, 'welcome');
    if (form && !(await repos.forms.latestSubmission(company.id, form.id, guest.username, serviceType))) {
      return 'welcomeForm: not submitted (POST /api/form-submission)';
    }
  }
  return null;
}
