/**
 * Error reporting, loaded with the first screen (`@lobby/call/reporting`, under 1 kB): it keeps the errors
 * thrown before the SDK is there, and starts the SDK (sentry.ts, its own chunk) once the page knows its
 * DSN and the browser is idle, so the SDK costs the guest's first load nothing. Without a DSN it stops
 * keeping errors, and nothing leaves the browser.
 */

/** At most this many early errors are kept for the SDK (a loop of errors must not grow memory). */
const EARLY_LIMIT = 20;

type Target = Pick<Window, 'addEventListener' | 'removeEventListener'>;

export interface ErrorReporting {
  /** Starts reporting to `dsn` when the browser is idle, or (null) stops keeping errors. Once only. */
  configure(dsn: string | null | undefined): Promise<boolean>;
  /** Errors kept so far for the SDK (tests). */
  readonly earlyErrors: readonly unknown[];
}

export interface ReportingDeps {
  target?: Target;
  /** loads the SDK's chunk (tests pass a fake) */
  load?: () => Promise<{ startSentry: (dsn: string, earlier: readonly unknown[]) => void }>;
  /** waits until the browser is idle */
  idle?: () => Promise<void>;
}

function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 3000 });
    else setTimeout(resolve, 1);
  });
}

/** Starts keeping the page's uncaught errors and unhandled rejections until `configure` decides. */
export function collectErrors(deps: ReportingDeps = {}): ErrorReporting {
  const target = deps.target ?? window;
  const early: unknown[] = [];
  const onError = (event: Event) => {
    if (early.length < EARLY_LIMIT) early.push((event as ErrorEvent).error ?? (event as ErrorEvent).message);
  };
  const onRejection = (event: Event) => {
    if (early.length < EARLY_LIMIT) early.push((event as PromiseRejectionEvent).reason);
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  let decided = false;
  const stop = () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
  return {
    earlyErrors: early,
    async configure(dsn) {
      if (decided) return false;
      decided = true;
      if (!dsn) {
        stop();
        early.length = 0;
        return false;
      }
      await (deps.idle ?? whenIdle)();
      const sdk = await (deps.load ?? (() => import('./sentry.ts')))();
      // from here on the SDK's own handlers see every error
      stop();
      sdk.startSentry(dsn, early.splice(0));
      return true;
    },
  };
}
