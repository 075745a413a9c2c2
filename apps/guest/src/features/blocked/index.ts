import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('blocked', () => import('./BlockedScreen.tsx').then((m) => m.BlockedScreen));
