import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('unsupported', () => import('./UnsupportedScreen.tsx').then((m) => m.UnsupportedScreen));
