import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('abandoned', () => import('./AbandonedScreen.tsx').then((m) => m.AbandonedScreen));
