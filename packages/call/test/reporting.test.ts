import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as SentryBrowser from '@sentry/browser';
import { describe, expect, it, vi } from 'vitest';
import { collectErrors } from '../src/diagnostics/reporting.ts';
import {
  IGNORED_ERRORS,
  IGNORED_TRANSACTIONS,
  REPLAY_SAMPLE_RATES,
  REPLAY_SPEC,
  clientOptions,
  replayOptions,
} from '../src/diagnostics/reportingOptions.ts';

const sentry = vi.hoisted(() => ({ init: vi.fn(), captureException: vi.fn() }));
vi.mock('@sentry/browser', async (original) => ({ ...(await original<typeof SentryBrowser>()), ...sentry }));

const DSN = 'https://public@errors.example.com/3';

function matches(patterns: Array<string | RegExp>, text: string): boolean {
  return patterns.some((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
}

/** The replay settings of docs/operations.md §13, as the SDK's options name them. */
const SPEC_REPLAY = {
  flushMinDelay: 5000,
  flushMaxDelay: 5500,
  minReplayDuration: 5000,
  maxReplayDuration: 3_600_000,
  mutationLimit: 10_000,
  slowClickTimeout: 7000,
};

describe('error reporting options', () => {
  it('when the replay options are built, then they carry flush 5–5.5 s, 5 s to 1 h, mutation limit 10,000, slow click 7 s, media masked', () => {
    expect(replayOptions()).toMatchObject({
      ...SPEC_REPLAY,
      maskAllText: true,
      maskAllInputs: true,
      blockAllMedia: true,
    });
  });

  it('when the client options are built, then replays sample 10 % of sessions and 100 % on error, no personal data, the DSN given', () => {
    const options = clientOptions(DSN, []);
    expect(options).toMatchObject({
      dsn: DSN,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
      sampleRate: 1,
      debug: false,
    });
    expect(options.dataCollection).toEqual({
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      urlQueryParams: false,
      httpBodies: [],
    });
    expect(REPLAY_SAMPLE_RATES).toEqual({ session: 0.1, onError: 1 });
  });

  it('when known noise, a redirect or a 404 transaction comes, then it is ignored; a real fault is not', () => {
    const options = clientOptions(DSN, []);
    expect(options.ignoreErrors).toBe(IGNORED_ERRORS);
    expect(options.ignoreSpans).toBe(IGNORED_TRANSACTIONS);
    expect(options.ignoreTransactions, 'ignored by SDK 11 with a warning').toBeUndefined();
    for (const noise of [
      'ResizeObserver loop completed with undelivered notifications.',
      'ResizeObserver loop limit exceeded',
      'Non-Error promise rejection captured with value: undefined',
      'AbortError: The user aborted a request.',
      'TypeError: Failed to fetch',
      'TypeError: Failed to fetch dynamically imported module: https://x/assets/a.js',
      'Error: Redirected when going from "/a" to "/b"',
    ]) {
      expect(matches(IGNORED_ERRORS, noise), noise).toBe(true);
    }
    expect(matches(IGNORED_TRANSACTIONS, 'GET /nope 404')).toBe(true);
    expect(matches(IGNORED_TRANSACTIONS, 'route not found')).toBe(true);
    for (const fault of [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      'Error: Lost connection to the server (is it down?)',
      'Error: call stage failed: publish',
    ]) {
      expect(matches(IGNORED_ERRORS, fault), fault).toBe(false);
    }
    expect(matches(IGNORED_TRANSACTIONS, '/call-report/add')).toBe(false);
  });

  it("when the installed SDK's fixed replay constants are read, then they still equal ours (idle pause 5 min, expiry 15 min, 20 MB buffer, 1 h)", () => {
    // the SDK has no options for these: they are constants of its replay build
    const require = createRequire(import.meta.url);
    const dir = path.dirname(
      require.resolve('@sentry/replay/package.json', {
        paths: [path.dirname(require.resolve('@sentry/browser'))],
      }),
    );
    const source = fs.readFileSync(path.join(dir, 'build/npm/esm/index.js'), 'utf8');
    const constant = (name: string) => Number(new RegExp(`const ${name} = ([0-9e.]+);`).exec(source)?.[1]);
    expect(constant('SESSION_IDLE_PAUSE_DURATION')).toBe(REPLAY_SPEC.idlePauseMs);
    expect(constant('SESSION_IDLE_EXPIRE_DURATION')).toBe(REPLAY_SPEC.idleExpireMs);
    expect(constant('REPLAY_MAX_EVENT_BUFFER_SIZE')).toBe(REPLAY_SPEC.eventBufferBytes);
    expect(constant('MAX_REPLAY_DURATION')).toBe(REPLAY_SPEC.maxDurationMs);
  });

  it('when the SDK is started, then init gets these options with a Replay integration built from them, and earlier errors are sent', async () => {
    const { startSentry } = await import('../src/diagnostics/sentry.ts');
    const early = new Error('before the SDK');
    startSentry(DSN, [early]);
    const options = sentry.init.mock.calls[0]?.[0] as ReturnType<typeof clientOptions>;
    expect(options).toMatchObject({
      dsn: DSN,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
      ignoreErrors: IGNORED_ERRORS,
    });
    const replay = (
      options.integrations as Array<{ name: string; _initialOptions?: Record<string, unknown> }>
    ).find((i) => i.name === 'Replay');
    expect(replay?._initialOptions).toMatchObject(SPEC_REPLAY);
    expect(sentry.captureException).toHaveBeenCalledWith(early);
  });
});

describe('collectErrors: the first-load part', () => {
  function fakeWindow() {
    const target = new EventTarget();
    const fire = (type: string, init: Record<string, unknown>) =>
      target.dispatchEvent(Object.assign(new Event(type), init));
    return { target, fire };
  }

  it('when no DSN is configured, then the SDK is never loaded and errors stop being kept', async () => {
    const { target, fire } = fakeWindow();
    const load = vi.fn();
    const reporting = collectErrors({ target, load, idle: () => Promise.resolve() });
    fire('error', { error: new Error('early') });
    expect(reporting.earlyErrors).toHaveLength(1);
    expect(await reporting.configure(null)).toBe(false);
    fire('error', { error: new Error('later') });
    expect(load).not.toHaveBeenCalled();
    expect(reporting.earlyErrors).toHaveLength(0);
  });

  it('when a DSN is configured, then the SDK loads only once the browser is idle and gets the errors thrown before it', async () => {
    const { target, fire } = fakeWindow();
    const startSentry = vi.fn();
    const load = vi.fn(() => Promise.resolve({ startSentry }));
    let idle: () => void = () => undefined;
    const reporting = collectErrors({ target, load, idle: () => new Promise<void>((r) => (idle = r)) });
    const boom = new Error('boom');
    fire('error', { error: boom });
    fire('unhandledrejection', { reason: 'rejected' });
    const started = reporting.configure(DSN);
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    idle();
    expect(await started).toBe(true);
    expect(startSentry).toHaveBeenCalledWith(DSN, [boom, 'rejected']);
    expect(await reporting.configure(DSN)).toBe(false); // once only
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when errors loop before the SDK is there, then at most 20 are kept', () => {
    const { target, fire } = fakeWindow();
    const reporting = collectErrors({ target, load: vi.fn(), idle: () => Promise.resolve() });
    for (let i = 0; i < 50; i++) fire('error', { error: new Error(String(i)) });
    expect(reporting.earlyErrors).toHaveLength(20);
  });
});
