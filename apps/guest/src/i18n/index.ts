// i18next for the guest app. English is bundled and initialised synchronously, so the first render is
// already translated; Arabic (the other catalogue) is its own small chunk, loaded when first needed —
// bootstrap loads it in parallel with the company details, so an Arabic page never flashes English.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import journeyEn from './journey/en.json';
import uiEn from '@lobby/ui/strings/en.json';
import type { Language } from '../state/store.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; journey: typeof journeyEn; ui: typeof uiEn };
  }
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en, journey: journeyEn, ui: uiEn } },
  ns: ['translation', 'journey', 'ui'],
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'ar'],
  interpolation: { escapeValue: false },
  initAsync: false,
});

const catalogues: Record<Exclude<Language, 'en'>, () => Promise<{ default: unknown }>> = {
  ar: () => import('./ar.json'),
};
// The journey's own strings (docs/guest-journey.md) live in their own namespace.
const journeyCatalogues: Record<Exclude<Language, 'en'>, () => Promise<{ default: unknown }>> = {
  ar: () => import('./journey/ar.json'),
};
// The shared in-call strings of @lobby/ui (namespace `ui`), its Arabic loaded with the app's.
const uiCatalogues: Record<Exclude<Language, 'en'>, () => Promise<{ default: unknown }>> = {
  ar: () => import('@lobby/ui/strings/ar.json'),
};

/** Makes sure the catalogue of `language` is loaded (no-op for English or when already there). */
export async function ensureLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'translation')) return;
  const [catalogue, journey, ui] = await Promise.all([catalogues[language](), journeyCatalogues[language](), uiCatalogues[language]()]);
  i18n.addResourceBundle(language, 'journey', journey.default, true, true);
  i18n.addResourceBundle(language, 'ui', ui.default, true, true);
  i18n.addResourceBundle(language, 'translation', catalogue.default, true, true);
}

/** Switches i18next and sets `<html lang dir>` (Arabic → rtl). Load the catalogue first (ensureLanguage). */
export function applyLanguage(language: Language, root: HTMLElement = document.documentElement): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  root.lang = language;
  root.dir = i18n.dir(language);
}

export { i18n };
