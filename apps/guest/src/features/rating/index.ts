import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('rating', () => import('./RatingScreen.tsx').then((m) => m.RatingScreen));
