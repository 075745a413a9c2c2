// What happens once the company details are known: language, preselected assignment, then the journey's
// gate (journey/chart.ts) decides the first screen. DOM effects live in AppEffects.
import type { Company } from '../api/company.ts';
import { resolveLanguage, savedLanguage } from '../i18n/language.ts';
import { ensureLanguage } from '../i18n/index.ts';
import type { GuestStore } from '../state/store.ts';
import { runGate, showWithoutChecks, type GateServices } from '../journey/controller.ts';
import { visibleAssignments } from '../journey/assignments.ts';

/** Puts a freshly loaded company into the store, then runs the gate (or, without services, shows selection). */
export async function applyCompany(store: GuestStore, company: Company, gateServices: GateServices | null): Promise<void> {
  const s = store.getState();
  s.setLanguage(resolveLanguage(company));
  const assignments = visibleAssignments(company);
  if (assignments.length === 1 && assignments[0]) s.setAssignment(assignments[0].id);
  if (!gateServices) {
    s.setCompanyOnly(company);
    showWithoutChecks(store);
    store.getState().setCompany(company);
    return;
  }
  // the loading screen stays until the gate has decided (location and form checks may take a moment)
  s.setCompanyOnly(company);
  await runGate(store, gateServices);
  store.getState().setReady();
}

/** Loads the company into the store (loading → ready | failed). Aborting leaves the store alone. */
export async function loadCompanyInto(
  store: GuestStore,
  load: (signal?: AbortSignal) => Promise<Company>,
  gateServices: GateServices | null,
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
    await applyCompany(store, company, gateServices);
  } catch (error) {
    if (signal?.aborted) return;
    store.getState().setLoadFailed({ code: 'company-load', message: error instanceof Error ? error.message : String(error) });
  }
}
