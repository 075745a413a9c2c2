import { join } from 'node:path';
import { lobbyAppConfig } from '../../vite.apps.ts';

/**
 * @lobby/ui's components (shared with the console, which keeps i18next) import their hook from
 * 'react-i18next'; in the guest page that is the guest's own translation layer (src/i18n/), so the page
 * carries one small layer instead of i18next and react-i18next. Also used by its unit tests
 * (vitest.config.ts), so they run what the page runs.
 */
export const guestAliases = [{ find: /^react-i18next$/, replacement: join(import.meta.dirname, 'src/i18n/react-i18next.ts') }];

// The guest call page at `/` (the shared build of both apps: vite.apps.ts), and its first screen's server
// build (src/entry-server.tsx → dist-ssr/, docs/architecture.md "The guest page").
export default lobbyAppConfig({ base: '/', appDir: import.meta.dirname, aliases: guestAliases, serverBuild: true });
