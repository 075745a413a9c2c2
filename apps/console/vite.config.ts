import { lobbyAppConfig } from '../../vite.apps.ts';

// The agents' console, served under /console/ (the shared build of both apps: vite.apps.ts).
export default lobbyAppConfig({ base: '/console/', appDir: import.meta.dirname, reactRouter: true });
