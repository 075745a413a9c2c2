import { ScreenRegistry } from '../screens/registry.ts';

ScreenRegistry.registerLazy('preview', () => import('./PreviewScreen.tsx').then((m) => m.PreviewScreen));
