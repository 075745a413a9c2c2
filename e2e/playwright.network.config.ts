import { defineConfig } from '@playwright/test';
import baseConfig from './playwright.config.ts';

/**
 * The real-network journeys (./scripts/test stage e2e-network): the stack inside the public network
 * namespace of scripts/lib/netns.sh, the guest's and the agent's Chromium inside theirs. Their own
 * project so that the suite can run them on their own; the loopback journeys never see these files.
 */
export default defineConfig({
  ...baseConfig,
  testDir: './network',
  outputDir: './artifacts/network-results',
  reporter: [['list'], ['./support/failureLogsReporter.ts'], ['html', { outputFolder: './artifacts/network-report', open: 'never' }]],
  use: { ...baseConfig.use, baseURL: process.env.LOBBY_BASE_URL ?? 'https://203.0.113.200' },
});
