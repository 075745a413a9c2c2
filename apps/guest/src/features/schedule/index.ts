import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('schedule', () => import('./ScheduleScreen.tsx').then((m) => m.ScheduleScreen));
