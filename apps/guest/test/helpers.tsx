import type { ReactNode } from 'react';
import { RouteContext, parseRoute } from '../src/app/route.ts';
import '../src/i18n/index.ts';
import '../src/features/index.ts';
import { AppProviders } from '../src/app/App.tsx';
import type { Company } from '../src/api/company.ts';
import type { GuestStore } from '../src/state/store.ts';
import type { AppServices } from '../src/state/services.ts';
import type { CallActions } from '../src/state/callActions.ts';

export function company(overrides: Partial<Company> = {}): Company {
  return {
    id: 18,
    activated: true,
    name: 'Acme',
    callType: 'userSelect',
    language: 'english',
    assignments: [{ id: 1, name: 'Sales', type: 'queue' }],
    // happy-dom reports navigator.webdriver true: these tests run as a test deployment (LOBBY_ALLOW_AUTOMATION=1)
    allowAutomation: true,
    ...overrides,
  };
}

export function Wrapper({
  store,
  children,
  path = '/',
  services,
  callActions,
}: {
  store: GuestStore;
  children: ReactNode;
  path?: string;
  services?: Partial<AppServices>;
  callActions?: CallActions;
}) {
  return (
    <AppProviders store={store} services={services} callActions={callActions}>
      <RouteContext.Provider value={parseRoute(path)}>{children}</RouteContext.Provider>
    </AppProviders>
  );
}
