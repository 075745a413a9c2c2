import { ScreenRegistry } from '../screens/registry.ts';

// Lazy like the others, but preloaded by the call page while the company details load.
ScreenRegistry.registerLazy('selection', () => import('./SelectionScreen.tsx').then((m) => m.SelectionScreen));
