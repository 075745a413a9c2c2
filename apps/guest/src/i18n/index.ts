// The guest app's strings, on its own small translation layer (translator.ts, useTranslation.ts; issue
// 16: i18next and react-i18next were a sixth of the first load). English is bundled and there from the
// first render; Arabic (the other catalogue) is its own small chunk, loaded when first needed —
// bootstrap loads it in parallel with the company details, so an Arabic page never flashes English.
import { Translator, type Tree } from './translator.ts';
import { translationHook } from './useTranslation.ts';
import en from './en.json';
import journeyEn from './journey/en.json';
import uiEn from '@lobby/ui/strings/en.json';
import type { Language } from '../state/store.ts';

const i18n = new Translator({
  resources: { en: { translation: en, journey: journeyEn, ui: uiEn } },
  language: 'en',
  fallback: 'en',
});

/** `const { t, i18n } = useTranslation()` (namespace `translation`), `useTranslation('journey')`, `useTranslation(['translation', 'ui'])`. */
export const useTranslation = translationHook(i18n);

type Catalogue = () => Promise<{ default: Tree }>;
const catalogues: Record<Exclude<Language, 'en'>, Catalogue> = {
  ar: () => import('./ar.json'),
};
// The journey's own strings (docs/guest-journey.md) live in their own namespace.
const journeyCatalogues: Record<Exclude<Language, 'en'>, Catalogue> = {
  ar: () => import('./journey/ar.json'),
};
// The shared in-call strings of @lobby/ui (namespace `ui`), its Arabic loaded with the app's.
const uiCatalogues: Record<Exclude<Language, 'en'>, Catalogue> = {
  ar: () => import('@lobby/ui/strings/ar.json'),
};

/** Makes sure the catalogue of `language` is loaded (no-op for English or when already there). */
export async function ensureLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'translation')) return;
  const [catalogue, journey, ui] = await Promise.all([catalogues[language](), journeyCatalogues[language](), uiCatalogues[language]()]);
  i18n.addResourceBundle(language, 'journey', journey.default);
  i18n.addResourceBundle(language, 'ui', ui.default);
  i18n.addResourceBundle(language, 'translation', catalogue.default);
}

/** Switches the strings and sets `<html lang dir>` (Arabic → rtl). Load the catalogue first (ensureLanguage). */
export function applyLanguage(language: Language, root: HTMLElement = document.documentElement): void {
  i18n.changeLanguage(language);
  root.lang = language;
  root.dir = i18n.dir(language);
}

export { i18n };
