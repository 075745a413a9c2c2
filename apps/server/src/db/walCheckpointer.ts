import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) when the log passes
 * `wal_autocheckpoint` pages, inside whichever write commits at that moment: with better-sqlite3, which
 * runs on the server's only thread, that request — and every request queued behind it — waits for the
 * copy and its fsync (≈ 100 ms spikes in bench/api, docs/performance.md). A worker thread with its own
 * connection checkpoints instead, every `intervalMs`, in PASSIVE mode (never blocks writers or readers);
 * the server's connection keeps a far larger automatic threshold as a safety net, should the worker stop.
 */
export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** the worker's code (a script: eval workers run CommonJS) */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/** pages of WAL before a write checkpoints by itself (SQLite's default is 1,000: ≈ 4 MB) */
export const SAFETY_AUTOCHECKPOINT_PAGES = 20_000;

export function startWalCheckpointer(file: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs: options.intervalMs ?? 1000 } });
  worker.unref();
  worker.on('message', (message: string) => options.onError?.(message));
  worker.on('error', (err) => options.onError?.(String(err)));
  return {
    async stop() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
    },
  };
}
