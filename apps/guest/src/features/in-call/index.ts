import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('inCall', () => import('./InCallScreen.tsx').then((m) => m.InCallScreen));
