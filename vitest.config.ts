import { defineConfig } from 'vitest/config';

// Unit and in-process API tests of every workspace; the browser journeys live in e2e/ (Playwright).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['test/**/*.test.ts'] } },
      { test: { name: 'call', root: 'packages/call', include: ['test/**/*.test.ts'] } },
      { test: { name: 'server', root: 'apps/server', include: ['test/**/*.test.ts'], pool: 'forks' } },
      { test: { name: 'guest', root: 'apps/guest', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' } },
      { test: { name: 'console', root: 'apps/console', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' } },
    ],
  },
});
