/**
 * A second, activated company on the test stack (the demo seed has one), for the journeys that need a
 * guest of another company. Written straight into the stack's database: no API creates companies.
 */
import { execute } from './db.ts';

export const OTHER_COMPANY_ID = 9001;

export async function ensureOtherCompany(): Promise<number> {
  await execute(
    'insert into companies (id, name, host, activated, settings, created_at) values (?, ?, ?, ?, ?, ?) on conflict (id) do nothing',
    [OTHER_COMPANY_ID, 'Other Co (e2e)', 'other.invalid', 1, '{}', Date.now()],
  );
  return OTHER_COMPANY_ID;
}
