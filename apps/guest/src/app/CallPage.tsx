import { lazy, Suspense, useCallback, useEffect } from 'react';
import { ScreenSwitch } from '../features/screens/ScreenSwitch.tsx';
import { ScreenRegistry } from '../features/screens/registry.ts';
import { useGuestStore, useGuestStoreApi } from '../state/store.ts';
import { LoadingScreen } from '../features/loading/LoadingScreen.tsx';

// only a guest who books loads it (docs/guest-journey.md "Booking a time instead")
const BookingView = lazy(() => import('../features/booking/BookingView.tsx').then((m) => ({ default: m.BookingView })));
import { loadCompanyInto } from './bootstrap.ts';
import { useAppServices } from '../state/services.ts';
import { PageShell } from './PageShell.tsx';
import { useGuestRoute } from './route.ts';

/** "/" and "/appointment/:reference": reads the URL into the store, loads the company, shows the screen. */
export function CallPage() {
  const store = useGuestStoreApi();
  const { loadCompany, gate } = useAppServices();
  const { reference, webview } = useGuestRoute();
  const booking = useGuestStore((s) => s.booking !== null);

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
      {booking ? (
        <Suspense fallback={<LoadingScreen />}>
          <BookingView />
        </Suspense>
      ) : (
        <ScreenSwitch onRetry={retry} />
      )}
    </PageShell>
  );
}
