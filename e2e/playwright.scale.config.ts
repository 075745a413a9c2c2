import { defineConfig } from '@playwright/test';
import baseConfig from './playwright.config.ts';

/**
 * The journeys across several Lobby server instances (./scripts/test stage `scale`, scripts/lib/scale.sh):
 * two instances on the tests' PostgreSQL behind nginx, whose front doors (PORT+5, PORT+6) each prefer one
 * instance, so a journey knows which instance each browser uses. They drain an instance and restart
 * PostgreSQL, so they run on their own, after the others.
 */
export default defineConfig({
  ...baseConfig,
  testDir: './scale',
  outputDir: './artifacts/scale-results',
  timeout: 240_000,
  reporter: [['list'], ['./support/failureLogsReporter.ts'], ['html', { outputFolder: './artifacts/scale-report', open: 'never' }]],
  projects: [{ name: 'scale' }],
});
