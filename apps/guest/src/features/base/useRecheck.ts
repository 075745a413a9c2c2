import { useCallback } from 'react';
import { useGuestStoreApi } from '../../state/store.ts';
import { useAppServices } from '../../state/services.ts';
import { runGate } from '../../journey/controller.ts';

/**
 * Runs the journey's gate again (docs/guest-journey.md): "Check again" on outofzone, the schedule's
 * minute tick, and "Call again" (hours or area may have changed since the page loaded).
 */
export function useRecheck(): () => Promise<void> {
  const store = useGuestStoreApi();
  const { gate } = useAppServices();
  return useCallback(async () => {
    if (!gate) return;
    await runGate(store, gate, { previewDone: true });
  }, [store, gate]);
}
