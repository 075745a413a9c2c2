import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('bot', () => import('./BotScreen.tsx').then((m) => m.BotScreen));
