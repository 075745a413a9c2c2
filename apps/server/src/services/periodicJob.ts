import type { JobLock } from './jobLocks.ts';

/**
 * A server job that runs every few seconds or hours (the retention of recordings, the vanished-guest
 * sweep): one run at a time (a call while one runs gets that run), a timer that does not keep the
 * process alive, failures logged. Tests call runOnce() with a fake clock instead of waiting.
 *
 * With several server instances on one database each starts every job, and a `lock`
 * (services/jobLocks.ts) lets one of them run it at a time; 'each instance' is for the few jobs whose
 * work is the instance's own (events that reached it), said where they are started.
 */
export interface PeriodicJob<T> {
  runOnce(): Promise<T>;
  /** runs once when this instance holds `lock` (always without one); resolves whether it ran */
  tick(lock?: JobLock): Promise<boolean>;
  /** `now`: also run right away (e.g. left-overs from before a restart) */
  start(intervalMs: number, options?: JobStartOptions): void;
  stop(): void;
}

export interface JobStartOptions {
  now?: boolean;
  lock?: JobLock;
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
    async tick(lock) {
      if (lock && !(await lock.held())) return false;
      await job.runOnce();
      return true;
    },
    start(intervalMs, options = {}) {
      if (timer) return;
      const tick = () => void job.tick(options.lock).catch((error: unknown) => log?.(`${name} failed`, error));
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

/**
 * Runs a job while the app serves: started when it is ready, stopped when it closes. `lock`: the job's
 * lock among the instances (app.services.jobLocks.lock(name)), or 'each instance' for a job whose work
 * is this instance's own.
 */
export function runWhileServing(
  app: {
    addHook(name: 'onReady', hook: (done: () => void) => void): unknown;
    addHook(name: 'onClose', hook: (instance: unknown, done: () => void) => void): unknown;
  },
  job: Pick<PeriodicJob<unknown>, 'start' | 'stop'>,
  intervalMs: number,
  options: { now?: boolean; lock: JobLock | 'each instance' },
): void {
  app.addHook('onReady', (done) => {
    job.start(intervalMs, { now: options.now, ...(options.lock === 'each instance' ? {} : { lock: options.lock }) });
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    job.stop();
    done();
  });
}
