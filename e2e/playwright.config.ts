import { defineConfig } from '@playwright/test';
import { adoptWorkerStack, workerCount } from './support/workerStack.ts';

// A worker runs against a stack of its own when ./scripts/test gives several (support/workerStack.ts).
adoptWorkerStack();
// The fault journeys run beside the others (their own lane of ./scripts/test): their own output folders.
const output = process.env.LOBBY_E2E_OUTPUT ? `${process.env.LOBBY_E2E_OUTPUT}-` : '';

/**
 * Browser journeys against the real stack (server, ejabberd, Janus, coturn) started by ./scripts/test.
 * One worker per stack: each test drives two or more real Chromium instances with real media on a 2-core
 * machine, and a worker's journeys change its stack's company settings (support/workerStack.ts).
 */
export default defineConfig({
  testDir: './tests',
  outputDir: `./artifacts/${output}test-results`,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: workerCount(),
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['./support/failureLogsReporter.ts'],
    ['html', { outputFolder: `./artifacts/${output}report`, open: 'never' }],
  ],
  use: {
    baseURL: process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080',
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  // The fault journeys stop, kill and restart the stack's servers: their own project, run as their own
  // stage of ./scripts/test on a stack of their own.
  projects: [
    { name: 'journeys', testIgnore: /fault-.*\.spec\.ts$/ },
    { name: 'fault', testMatch: /fault-.*\.spec\.ts$/, timeout: 240_000 },
  ],
});
