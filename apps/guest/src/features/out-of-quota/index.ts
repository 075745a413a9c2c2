import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('outOfQuota', () => import('./OutOfQuotaScreen.tsx').then((m) => m.OutOfQuotaScreen));
