import { lobbyAppConfig } from '../../vite.apps.ts';

// The guest call page at `/` (the shared build of both apps: vite.apps.ts).
export default lobbyAppConfig({ base: '/', appDir: import.meta.dirname });
