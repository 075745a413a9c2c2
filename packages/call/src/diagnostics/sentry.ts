/**
 * The Sentry browser SDK, started for a DSN. Only ever reached through `import()` from reporting.ts, so
 * the SDK (≈ 80 kB gzip with session replay) is its own chunk and weighs nothing on the first load.
 */
import { captureException, init, replayIntegration } from '@sentry/browser';
import { clientOptions, replayOptions } from './reportingOptions.ts';

/** Starts the SDK and sends the errors that happened before it was loaded. */
export function startSentry(dsn: string, earlier: readonly unknown[]): void {
  init(clientOptions(dsn, [replayIntegration(replayOptions())]));
  for (const error of earlier) captureException(error);
}
