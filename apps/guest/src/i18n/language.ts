import type { Company } from '../api/company.ts';
import type { Language } from '../state/store.ts';

const STORAGE_KEY = 'lobby.language';

/** Whether the guest may switch language: the company is multilingual (the default). */
export function isMultilingual(company: Pick<Company, 'language'> | null): boolean {
  return !company?.language || company.language === 'multilingual';
}

/** The guest's saved choice (multilingual companies only). */
export function savedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'ar' || value === 'en' ? value : null;
  } catch {
    return null;
  }
}

export function saveLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/**
 * The language to show: 'arabic' → ar; 'multilingual' (or unset) → the saved choice, else the browser's
 * language; anything else → en.
 */
export function resolveLanguage(
  company: Pick<Company, 'language'>,
  saved: Language | null = savedLanguage(),
  browser: string = typeof navigator === 'undefined' ? 'en' : navigator.language,
): Language {
  if (company.language === 'arabic') return 'ar';
  if (isMultilingual(company)) return saved ?? (browser.toLowerCase().startsWith('ar') ? 'ar' : 'en');
  return 'en';
}

/**
 * The browser's language as `navigator.language` gives it, from a request's `Accept-Language` (the server's
 * render of the first screen, docs/architecture.md "The guest page"): its first entry, the browser's first choice.
 */
export function browserLanguageOf(acceptLanguage: string | undefined): string {
  const first = (acceptLanguage ?? '').split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : 'en';
}
