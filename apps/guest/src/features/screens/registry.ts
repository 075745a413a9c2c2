// Features register the component of their screen here (like Jitsi Meet's registries), so the screen
// switch knows nothing about the features and a feature can be added or removed in one place.
// A screen that is not needed for the first paint registers a loader instead: it becomes its own chunk
// (keeps the first load small) and is preloaded once the page is idle, so moving to it is instant:
// once its chunk is in, `get` gives the component itself, not React's lazy wrapper. A lazy wrapper
// suspends on its first render even when its chunk has long arrived, and React then holds the screen
// back behind the fallback for up to its suspense throttle (300 ms): on the waiting → ongoing switch that
// was the agent's first frame decoded but not shown for 160–290 ms (bench/call-setup.ts --timeline).
import { lazy, type ComponentType } from 'react';
import type { Screen } from '../../state/screens.ts';

type Loader = () => Promise<ComponentType>;

const components = new Map<Screen, ComponentType>();
/** lazy screens whose chunk has arrived */
const loaded = new Map<Screen, ComponentType>();
const loaders = new Map<Screen, Loader>();

export const ScreenRegistry = {
  /** A component that is part of the first chunk. */
  register(screen: Screen, component: ComponentType): void {
    components.set(screen, component);
    loaders.delete(screen);
    loaded.delete(screen);
  },
  /** A component loaded on demand: `() => import('./X.tsx').then((m) => m.X)`. */
  registerLazy(screen: Screen, load: Loader): void {
    loaded.delete(screen);
    let pending: Promise<ComponentType> | undefined;
    const once: Loader = () =>
      (pending ??= load().then((component) => {
        loaded.set(screen, component);
        return component;
      }));
    loaders.set(screen, once);
    components.set(
      screen,
      lazy(() => once().then((component) => ({ default: component }))),
    );
  },
  /**
   * The screen's component: a lazy screen's own component once its chunk is in, else its lazy wrapper.
   * The answer for one screen can change while it is shown (its chunk arrives): hold on to the first
   * answer until the screen changes (ScreenSwitch does), or the screen would be mounted afresh.
   */
  get(screen: Screen): ComponentType | undefined {
    return loaded.get(screen) ?? components.get(screen);
  },
  registered(): Screen[] {
    return [...components.keys()];
  },
  /** Starts loading one lazy screen's chunk (e.g. the first screen, while the company loads). */
  preload(screen: Screen): void {
    void loaders.get(screen)?.().catch(() => undefined);
  },
  /** Loads one lazy screen's chunk; resolves once `get` gives the component itself (at once for an eager one). */
  async load(screen: Screen): Promise<void> {
    await loaders.get(screen)?.();
  },
  /** Loads every lazy screen's chunk (call when idle). */
  preloadAll(): Promise<unknown> {
    return Promise.all([...loaders.values()].map((load) => load().catch(() => undefined)));
  },
};
