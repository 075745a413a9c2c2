// What happens once the company details are known. Pure decisions here; DOM effects live in AppEffects.
import type { Company } from '../api/company.ts';
import { resolveLanguage, savedLanguage } from '../i18n/language.ts';
import { ensureLanguage } from '../i18n/index.ts';
import type { GuestStore, UnsupportedReason } from './store.ts';
import type { Screen } from './screens.ts';

/** Whether this browser can place a WebRTC call at all. */
export function browserSupport(win: Window | undefined = typeof window === 'undefined' ? undefined : window): UnsupportedReason | null {
  if (!win) return null;
  if (!('RTCPeerConnection' in win) || typeof win.RTCPeerConnection !== 'function') return 'browser';
  if (!win.navigator.mediaDevices || typeof win.navigator.mediaDevices.getUserMedia !== 'function') return 'browser';
  return null;
}

/** The first screen for a company: inactive, unsupported, preview or selection. */
export function initialScreen(company: Company, unsupported: UnsupportedReason | null): Screen {
  if (!company.activated) return 'inactive';
  if (unsupported) return 'unsupported';
  if (company.previewScreen) return 'preview';
  return 'selection';
}

/** Puts a freshly loaded company into the store: company, language, preselected assignment, first screen. */
export function applyCompany(store: GuestStore, company: Company, unsupported: UnsupportedReason | null = browserSupport()): void {
  const s = store.getState();
  s.setCompany(company);
  s.setLanguage(resolveLanguage(company));
  const assignments = company.assignments ?? [];
  if (assignments.length === 1 && assignments[0]) s.setAssignment(assignments[0].id);
  const screen = initialScreen(company, unsupported);
  if (screen === 'unsupported') s.setUnsupportedReason(unsupported);
  s.setScreen(screen);
}

/** Loads the company into the store (loading → ready | failed). Aborting leaves the store alone. */
export async function loadCompanyInto(
  store: GuestStore,
  load: (signal?: AbortSignal) => Promise<Company>,
  signal?: AbortSignal,
): Promise<void> {
  store.getState().setLoading();
  // The guest's likely language loads while the company details are on their way.
  const guess = savedLanguage() ?? (navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en');
  void ensureLanguage(guess).catch(() => undefined);
  try {
    const company = await load(signal);
    await ensureLanguage(resolveLanguage(company)).catch(() => undefined);
    if (signal?.aborted) return;
    applyCompany(store, company);
  } catch (error) {
    if (signal?.aborted) return;
    store.getState().setLoadFailed({ code: 'company-load', message: error instanceof Error ? error.message : String(error) });
  }
}
