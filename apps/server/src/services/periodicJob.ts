/**
 * A server job that runs every few seconds or hours (the retention of recordings, the vanished-guest
 * sweep): one run at a time (a call while one runs gets that run), a timer that does not keep the
 * process alive, failures logged. Tests call runOnce() with a fake clock instead of waiting.
 */
export interface PeriodicJob<T> {
  runOnce(): Promise<T>;
  /** `now`: also run right away (e.g. left-overs from before a restart) */
  start(intervalMs: number, options?: { now?: boolean }): void;
  stop(): void;
}

export function createPeriodicJob<T>(name: string, run: () => Promise<T>, log?: (message: string, error?: unknown) => void): PeriodicJob<T> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<T> | null = null;
  const job: PeriodicJob<T> = {
    runOnce() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs, options = {}) {
      if (timer) return;
      const tick = () => void job.runOnce().catch((error: unknown) => log?.(`${name} failed`, error));
      if (options.now) tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return job;
}

/** Runs a job while the app serves: started when it is ready, stopped when it closes. */
export function runWhileServing(
  app: { addHook(name: 'onReady', hook: (done: () => void) => void): unknown; addHook(name: 'onClose', hook: (instance: unknown, done: () => void) => void): unknown },
  job: Pick<PeriodicJob<unknown>, 'start' | 'stop'>,
  intervalMs: number,
  options: { now?: boolean } = {},
): void {
  app.addHook('onReady', (done) => {
    job.start(intervalMs, options);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    job.stop();
    done();
  });
}
