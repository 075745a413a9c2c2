import { useCallback, useEffect } from 'react';
import { ScreenSwitch } from '../features/screens/ScreenSwitch.tsx';
import { ScreenRegistry } from '../features/screens/registry.ts';
import { useGuestStoreApi } from '../state/store.ts';
import { loadCompanyInto } from './bootstrap.ts';
import { useAppServices } from '../state/services.ts';
import { PageShell } from './PageShell.tsx';
import { useGuestRoute } from './route.ts';

/** "/" and "/appointment/:reference": reads the URL into the store, loads the company, shows the screen. */
export function CallPage() {
  const store = useGuestStoreApi();
  const { loadCompany, gate } = useAppServices();
  const { reference, webview } = useGuestRoute();

  useEffect(() => {
    store.getState().setWebview(webview);
    store.getState().setAppointmentReference(reference ?? null);
  }, [store, webview, reference]);

  useEffect(() => {
    // Fixtures (dev only) and a second visit of the page arrive with the company already loaded.
    if (store.getState().phase !== 'loading') return;
    // The start screen's chunk loads alongside the company details.
    ScreenRegistry.preload('selection');
    const controller = new AbortController();
    void loadCompanyInto(store, loadCompany, gate, controller.signal);
    return () => controller.abort();
  }, [store, loadCompany, gate]);

  const retry = useCallback(() => void loadCompanyInto(store, loadCompany, gate), [store, loadCompany, gate]);

  return (
    <PageShell>
      <ScreenSwitch onRetry={retry} />
    </PageShell>
  );
}
