/**
 * The scale stage's topology as a journey sees it (scripts/lib/instances.sh, docs/operations.md
 * "Scaling"): nginx's shared front door, which balances over both instances, and one front door per
 * instance that prefers it; the instances' processes, drained and started with the scripts' own functions.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page, Response } from '@playwright/test';

const run = promisify(execFile);
const port = Number(process.env.PORT ?? 8080);

/** nginx's front door that balances over every instance. */
export const SHARED_DOOR = `http://127.0.0.1:${port}`;
/** The front door that prefers instance `i` (the other is its backup): PORT + 4 + i. */
export const door = (i: 1 | 2): string => `http://127.0.0.1:${port + 4 + i}`;

/** Runs `script` with the scripts' functions (scripts/lib/stack.sh) in this stack's environment; its output. */
export async function stackScript(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', `. scripts/lib/stack.sh >/dev/null && ${script}`], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: process.env,
    timeout: 120_000,
  });
  return stdout;
}

/**
 * SIGTERM to instance `i`, as systemd or ./scripts/stop sends it; resolves once the process exited (its
 * drain: apps/server/src/plugins/external/drain.ts) with how long that took.
 */
export async function drainInstance(i: 1 | 2): Promise<number> {
  const name = i === 1 ? 'server' : `server-${i}`;
  const started = Date.now();
  await stackScript(`pid=$(lobby_pid ${name}) && kill -TERM "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; rm -f "$(lobby_pidfile ${name})"`);
  return Date.now() - started;
}

/**
 * SIGKILL to instance `i`, as a crash or the kernel's OOM killer ends it: no drain, its event streams and
 * requests cut. Resolves once the process is gone.
 */
export async function killInstance(i: 1 | 2): Promise<void> {
  const name = i === 1 ? 'server' : `server-${i}`;
  await stackScript(`pid=$(lobby_pid ${name}) && kill -KILL "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; rm -f "$(lobby_pidfile ${name})"`);
}

/**
 * Starts every instance that is not running (scripts/lib/stack.sh start_server), then waits until each
 * front door answers from its own instance again: nginx keeps an instance it could not reach out of its
 * upstream for fail_timeout (10 s, scripts/lib/instances.sh), and a journey started meanwhile would be
 * served by the backup instead of the instance its door names.
 */
export async function startInstances(): Promise<void> {
  await stackScript('start_server');
  for (const i of [1, 2] as const) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answered = await fetch(`${door(i)}/api/health`).then(instanceOf, () => null);
      if (answered === String(i)) break;
      if (Date.now() > deadline) throw new Error(`front door ${i} still answers from instance ${answered ?? 'none'} 30 s after the start`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Stops the tests' PostgreSQL (pg_ctl -m fast: every connection is ended) and starts it again. */
export async function restartPostgres(): Promise<void> {
  await stackScript('lobby_pg_stop && lobby_pg_start');
}

/** Starts the tests' PostgreSQL if a journey left it stopped. */
export async function ensurePostgres(): Promise<void> {
  await stackScript('lobby_pg_start');
}

/** The instance that answered (the x-lobby-instance header every response carries). */
export const instanceOf = (response: Response | globalThis.Response): string | null =>
  'headerValue' in response ? (response.headers()['x-lobby-instance'] ?? null) : response.headers.get('x-lobby-instance');

/**
 * What a person would call an error in a browser, from the moment this is called: a request that failed
 * (no answer), an answer of 500 or more from /api, a page error, an error in the console. Event streams
 * that a draining server ended are no error (the browser reconnects); a request the test itself aborted
 * by leaving the page neither.
 */
export function watchErrors(page: Page, tag: string): { errors: string[]; instances: string[] } {
  const errors: string[] = [];
  const instances: string[] = [];
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    if (failure === 'net::ERR_ABORTED') return;
    errors.push(`[${tag}] request failed: ${request.method()} ${request.url()} ${failure}`);
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    const instance = instanceOf(response);
    if (instance) instances.push(instance);
    if (response.status() >= 500) errors.push(`[${tag}] ${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  page.on('pageerror', (e) => errors.push(`[${tag}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`[${tag}] console error: ${m.text()}`);
  });
  return { errors, instances };
}
