import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { applyLanguage, ensureLanguage } from '../i18n/index.ts';
import { applyTheme } from '../theme/theme.ts';
import { CallActionsContext, type CallActions } from '../state/callActions.ts';
import { demoCallActions } from './demoCallActions.ts';
import { GuestStoreContext, useGuestStore, type GuestStore } from '../state/store.ts';
import { CallPage } from './CallPage.tsx';
import { useGuestRoute } from './route.ts';
import { AppServicesContext, defaultServices, type AppServices } from '../state/services.ts';
import { browserGateServices, type GateServices } from '../journey/controller.ts';

/** The gate's checks against the real browser and API; the API session comes from the call engine. */
function remoteGate(actions: CallActions): GateServices {
  return browserGateServices({
    insideZone: async (position) => {
      const session = await actions.session();
      // only companies with a service area need it: not part of the first load
      return session ? (await import('../api/guest.ts')).checkGeofence(session, position) : false;
    },
    formRequired: async () => {
      const session = await actions.session();
      return session ? (await import('../api/guest.ts')).welcomeFormRequired(session) : false;
    },
  });
}

/** Keeps the document in step with the store: language and direction, theme, title. */
function AppEffects() {
  const { t } = useTranslation();
  const language = useGuestStore((s) => s.language);
  const company = useGuestStore((s) => s.company);
  useEffect(() => {
    let current = true;
    ensureLanguage(language)
      .catch(() => undefined) // a missing catalogue falls back to English text, still in the right direction
      .finally(() => current && applyLanguage(language));
    return () => {
      current = false;
    };
  }, [language]);
  useEffect(() => {
    if (company) applyTheme(company);
  }, [company]);
  useEffect(() => {
    document.title = company?.name ? t('app.title', { company: company.name }) : t('app.titleFallback');
  }, [company, t, language]);
  return null;
}

export interface AppProvidersProps {
  store: GuestStore;
  /** The call engine's actions; the screen-only demo actions until it is wired. */
  callActions?: CallActions;
  services?: Partial<AppServices>;
  children: ReactNode;
}

export function AppProviders({ store, callActions, services, children }: AppProvidersProps) {
  const actions = useMemo(() => callActions ?? demoCallActions(store), [callActions, store]);
  const value = useMemo<AppServices>(
    () => ({
      loadCompany: services?.loadCompany ?? defaultServices.loadCompany,
      gate: services?.gate !== undefined ? services.gate : remoteGate(actions),
    }),
    [services?.loadCompany, services?.gate, actions],
  );
  return (
    <GuestStoreContext.Provider value={store}>
      <CallActionsContext.Provider value={actions}>
        <AppServicesContext.Provider value={value}>
          <AppEffects />
          {children}
        </AppServicesContext.Provider>
      </CallActionsContext.Provider>
    </GuestStoreContext.Provider>
  );
}

const NotFoundPage = lazy(() => import('./NotFoundPage.tsx').then((m) => ({ default: m.NotFoundPage })));

/** "/" and "/appointment/:reference" are the call page; anything else is not found. */
export function AppRoutes() {
  const route = useGuestRoute();
  if (route.kind === 'call') return <CallPage />;
  return (
    <Suspense fallback={null}>
      <NotFoundPage />
    </Suspense>
  );
}

export function App(props: Omit<AppProvidersProps, 'children'>) {
  return (
    <AppProviders {...props}>
      <AppRoutes />
    </AppProviders>
  );
}
