// Features register the component of their screen here (like Jitsi Meet's registries), so the screen
// switch knows nothing about the features and a feature can be added or removed in one place.
// A screen that is not needed for the first paint registers a loader instead: it becomes its own chunk
// (keeps the first load small) and is preloaded once the page is idle, so moving to it is instant.
import { lazy, type ComponentType } from 'react';
import type { Screen } from '../../state/screens.ts';

type Loader = () => Promise<ComponentType>;

const components = new Map<Screen, ComponentType>();
const loaders = new Map<Screen, Loader>();

export const ScreenRegistry = {
  /** A component that is part of the first chunk. */
  register(screen: Screen, component: ComponentType): void {
    components.set(screen, component);
    loaders.delete(screen);
  },
  /** A component loaded on demand: `() => import('./X.tsx').then((m) => m.X)`. */
  registerLazy(screen: Screen, load: Loader): void {
    let pending: Promise<ComponentType> | undefined;
    const once: Loader = () => (pending ??= load());
    loaders.set(screen, once);
    components.set(
      screen,
      lazy(() => once().then((component) => ({ default: component }))),
    );
  },
  get(screen: Screen): ComponentType | undefined {
    return components.get(screen);
  },
  registered(): Screen[] {
    return [...components.keys()];
  },
  /** Starts loading one lazy screen's chunk (e.g. the first screen, while the company loads). */
  preload(screen: Screen): void {
    void loaders.get(screen)?.().catch(() => undefined);
  },
  /** Loads every lazy screen's chunk (call when idle). */
  preloadAll(): Promise<unknown> {
    return Promise.all([...loaders.values()].map((load) => load().catch(() => undefined)));
  },
};
