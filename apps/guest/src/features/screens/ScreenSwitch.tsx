import { Suspense, useEffect, useMemo } from 'react';
import { useGuestStore } from '../../state/store.ts';
import { ScreenRegistry } from './registry.ts';
import { LoadingScreen } from '../loading/LoadingScreen.tsx';
import { LoadErrorScreen } from '../loading/LoadErrorScreen.tsx';

/** Preload the lazy screens once the page has settled, so later screen changes never wait. */
function usePreloadScreens(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const run = () => void ScreenRegistry.preloadAll();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(run, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(run, 1500);
    return () => clearTimeout(id);
  }, [enabled]);
}

/**
 * Renders what the store says: the loading or load-error phase, else the registered component of
 * the current screen. Pure: no call logic.
 */
export function ScreenSwitch({ onRetry }: { onRetry?: () => void }) {
  const phase = useGuestStore((s) => s.phase);
  const screen = useGuestStore((s) => s.screen);
  usePreloadScreens(phase === 'ready');
  // one component per screen while it is shown: a chunk arriving meanwhile must not remount it
  const Component = useMemo(() => (phase === 'ready' ? ScreenRegistry.get(screen) : undefined), [screen, phase]);
  if (phase === 'loading') return <LoadingScreen />;
  if (phase === 'failed') return <LoadErrorScreen onRetry={onRetry} />;
  if (!Component) throw new Error(`No component registered for screen "${screen}"`);
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Component />
    </Suspense>
  );
}
