import type { Company, CompanyMessageKey } from '../api/company.ts';
import type { Language } from '../state/store.ts';
import { i18n } from './index.ts';

/**
 * A company message in the guest's language: in Arabic the `_ar` variant when present, else the base
 * field, else the translated default (`companyDefaults.<key>`). Blank strings count as absent.
 */
export function companyMessage(company: Company | null, key: CompanyMessageKey, lang: Language): string {
  const pick = (value: string | null | undefined) => (value && value.trim() ? value : undefined);
  const arabic = lang === 'ar' ? pick(company?.[`${key}_ar`]) : undefined;
  return arabic ?? pick(company?.[key]) ?? i18n.t(`companyDefaults.${key}`, { lng: lang });
}
