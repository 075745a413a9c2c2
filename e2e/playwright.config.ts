import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real stack (server, ejabberd, Janus, coturn) started by ./scripts/test.
 * One worker: each test drives two or more real Chromium instances with real media on a 2-core machine.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./support/failureLogsReporter.ts'], ['html', { outputFolder: './artifacts/report', open: 'never' }]],
  use: {
    baseURL: process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // The fault journeys stop, kill and restart the stack's servers: their own project, run as
  // their own stage of ./scripts/test after the others.
  projects: [
    { name: 'journeys', testIgnore: /fault-.*\.spec\.ts$/ },
    { name: 'fault', testMatch: /fault-.*\.spec\.ts$/, timeout: 240_000 },
  ],
});
