import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('outofzone', () => import('./OutOfZoneScreen.tsx').then((m) => m.OutOfZoneScreen));
