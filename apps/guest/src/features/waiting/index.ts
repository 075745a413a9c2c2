import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('waiting', () => import('./WaitingScreen.tsx').then((m) => m.WaitingScreen));
