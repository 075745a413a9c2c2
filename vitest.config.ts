import { defineConfig } from 'vitest/config';
import { guestAliases } from './apps/guest/vite.config.ts';

// Unit and in-process API tests of every workspace; the browser journeys live in e2e/ (Playwright).
export default defineConfig({
  test: {
    // the machine has two cores; more workers only make every test wait for CPU
    maxWorkers: 2,
    projects: [
      // repository-wide rules (the lint rule of the layers)
      { test: { name: 'repo', root: '.', include: ['test/**/*.test.ts'] } },
      { test: { name: 'contracts', root: 'packages/contracts', include: ['test/**/*.test.ts'] } },
      { test: { name: 'call', root: 'packages/call', include: ['test/**/*.test.ts'] } },
      { test: { name: 'ui', root: 'packages/ui', include: ['test/**/*.test.ts'] } },
      { test: { name: 'call-react', root: 'packages/call-react', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          pool: 'forks',
          server: { deps: { inline: ['@fastify/autoload'] } },
          // console logins hash with memory-hard scrypt on purpose; a busy machine makes set-up slow,
          // and timeouts here are not performance budgets (those live in bench/)
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // @lobby/ui's 'react-i18next' is the guest's own translation layer, as in the guest's build
        resolve: { alias: guestAliases },
        test: { name: 'guest', root: 'apps/guest', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
      { test: { name: 'console', root: 'apps/console', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' } },
    ],
  },
});
