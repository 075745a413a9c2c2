import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('inactive', () => import('./InactiveScreen.tsx').then((m) => m.InactiveScreen));
