import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('ongoing', () => import('./OngoingScreen.tsx').then((m) => m.OngoingScreen));
