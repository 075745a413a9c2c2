import type { CompanyMessageKey } from '../../api/company.ts';
import { useGuestStore } from '../../state/store.ts';
import { companyMessage } from '../../i18n/companyMessage.ts';

/** A company message in the current language (see companyMessage). */
export function useCompanyMessage(key: CompanyMessageKey): string {
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  return companyMessage(company, key, language);
}

/** The company's name in the current language: the company gives no Arabic name; this keeps one place. */
export function useCompanyName(): string {
  return useGuestStore((s) => s.company?.name ?? '');
}
