// i18next for the console: English and Arabic bundled, initialised synchronously.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import ar from './ar.json';
import adminEn from './admin.en.json';
import adminAr from './admin.ar.json';
import routingEn from './routing.en.json';
import routingAr from './routing.ar.json';
import uiEn from '@lobby/ui/strings/en.json';
import uiAr from '@lobby/ui/strings/ar.json';
import type { Language } from '../state/store.ts';

/**
 * `translation`: the workspace; `admin`: administration and reports; `routing`: how calls reach agents
 * (appointment badge, round-robin offers). Kept apart so each area owns its file. `ui`: the in-call
 * strings shared with the guest app (@lobby/ui).
 */
export const resources = {
  en: { translation: en, admin: adminEn, routing: routingEn, ui: uiEn },
  ar: { translation: ar, admin: adminAr, routing: routingAr, ui: uiAr },
} as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; admin: typeof adminEn; routing: typeof routingEn; ui: typeof uiEn };
  }
}

void i18n.use(initReactI18next).init({
  resources,
  ns: ['translation', 'admin', 'routing', 'ui'],
  defaultNS: 'translation',
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'ar'],
  interpolation: { escapeValue: false },
  initAsync: false,
});

const STORAGE_KEY = 'lobby.console.language';

/** The saved choice, else the browser's language. */
export function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'ar') return saved;
  } catch {
    // no storage: fall through
  }
  return typeof navigator !== 'undefined' && navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

export function saveLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // private mode
  }
}

/** Switches i18next and sets `<html lang dir>`. */
export function applyLanguage(language: Language, root: HTMLElement = document.documentElement): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  root.lang = language;
  root.dir = i18n.dir(language);
}

export { i18n };
