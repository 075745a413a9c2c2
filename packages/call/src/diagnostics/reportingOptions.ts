/**
 * What the Sentry browser SDK is started with (docs/operations.md §13: replays of 10 % of
 * sessions and of every session with an error, known noise, redirects and 404 transactions not reported,
 * the replay's timing).
 *
 * Pure values and builders, no SDK code: the SDK itself loads lazily (reporting.ts), and the unit tests
 * read these. Types only come from the SDK.
 */
import type { BrowserOptions, replayIntegration } from '@sentry/browser';

type ReplayOptions = NonNullable<Parameters<typeof replayIntegration>[0]>;

/** The session replay constants (docs/operations.md §13). */
export const REPLAY_SPEC = {
  flushMinDelayMs: 5_000,
  flushMaxDelayMs: 5_500,
  minDurationMs: 5_000,
  maxDurationMs: 60 * 60 * 1000,
  /** the SDK's own constants (SESSION_IDLE_PAUSE_DURATION, SESSION_IDLE_EXPIRE_DURATION,
   * REPLAY_MAX_EVENT_BUFFER_SIZE): not options; a unit test checks the installed SDK still has them */
  idlePauseMs: 5 * 60 * 1000,
  idleExpireMs: 15 * 60 * 1000,
  eventBufferBytes: 20_000_000,
  mutationLimit: 10_000,
  slowClickMs: 7_000,
} as const;

/** Replays of 10 % of sessions, and of every session with an error. */
export const REPLAY_SAMPLE_RATES = { session: 0.1, onError: 1 } as const;

/**
 * Known noise: browser quirks that are not faults of the page, requests the browser or the
 * guest cancelled, a lazy chunk that a redeploy replaced under an open tab, redirects, and extensions.
 */
export const IGNORED_ERRORS: Array<string | RegExp> = [
  /ResizeObserver loop (limit exceeded|completed with undelivered notifications)/,
  'Non-Error promise rejection captured',
  /^AbortError\b|The (user aborted a request|operation was aborted)/,
  /^(TypeError: )?(Failed to fetch|NetworkError when attempting to fetch resource|Load failed)\.?$/,
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/,
  /\bredirect(ed|ing)?\b/i,
];
/**
 * 404 transactions: a mistyped address is the guest's, not ours. SDK 11 streams spans
 * (`traceLifecycle: 'stream'`), so a transaction is a root span and the filter is `ignoreSpans` (its
 * `ignoreTransactions` is ignored then, with a warning).
 */
export const IGNORED_TRANSACTIONS: Array<string | RegExp> = [/\b404\b/, /not[ _-]?found/i];
/** Errors thrown by browser extensions' scripts are not the page's. */
export const DENIED_URLS: RegExp[] = [/^(chrome|moz|safari(-web)?)-extension:\/\//];

/** The replay integration's options (docs/operations.md §13); text, inputs and media (video) masked. */
export function replayOptions(): ReplayOptions {
  return {
    flushMinDelay: REPLAY_SPEC.flushMinDelayMs,
    flushMaxDelay: REPLAY_SPEC.flushMaxDelayMs,
    minReplayDuration: REPLAY_SPEC.minDurationMs,
    maxReplayDuration: REPLAY_SPEC.maxDurationMs,
    mutationLimit: REPLAY_SPEC.mutationLimit,
    slowClickTimeout: REPLAY_SPEC.slowClickMs,
    maskAllText: true,
    maskAllInputs: true,
    blockAllMedia: true,
  };
}

/** The SDK's client options for `dsn`, with the integrations the caller built from the SDK. */
export function clientOptions(
  dsn: string,
  integrations: NonNullable<BrowserOptions['integrations']>,
): BrowserOptions {
  return {
    dsn,
    integrations,
    replaysSessionSampleRate: REPLAY_SAMPLE_RATES.session,
    replaysOnErrorSampleRate: REPLAY_SAMPLE_RATES.onError,
    sampleRate: 1,
    ignoreErrors: IGNORED_ERRORS,
    ignoreSpans: IGNORED_TRANSACTIONS,
    denyUrls: DENIED_URLS,
    // nothing that identifies the guest: no user, cookies, headers, query strings or bodies (the SDK's
    // defaults collect them all); the guest's words reach the replay masked (replayOptions)
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      urlQueryParams: false,
      httpBodies: [],
    },
    // the page prints nothing (docs/operations.md §13)
    debug: false,
  };
}
