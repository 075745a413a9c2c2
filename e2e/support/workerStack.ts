/**
 * The e2e stage of ./scripts/test may run the journeys over several stacks, one per Playwright worker, each
 * on a test slot of its own (its ports, run dir and secrets): LOBBY_E2E_STACKS lists one JSON file per
 * stack with that stack's environment (written by scripts/test). A worker takes the environment of the
 * stack of its parallel index before anything reads it, so every address, secret and restart of a journey
 * (support/stack.ts) is its own stack's, and journeys that change a company's settings never meet another
 * worker's. Without LOBBY_E2E_STACKS nothing changes: one worker on the environment it was given.
 */
import fs from 'node:fs';

/** The stacks' environment files, in worker order. */
export function stackEnvFiles(): string[] {
  return (process.env.LOBBY_E2E_STACKS ?? '').split(':').filter((file) => file !== '');
}

/** How many workers the journeys may have: one per stack. */
export function workerCount(): number {
  return Math.max(1, stackEnvFiles().length);
}

/** In a worker process (Playwright sets TEST_PARALLEL_INDEX), its stack's environment becomes its own. */
export function adoptWorkerStack(): void {
  const files = stackEnvFiles();
  const index = process.env.TEST_PARALLEL_INDEX;
  if (files.length === 0 || index === undefined) return;
  const file = files[Number(index)];
  if (!file) throw new Error(`worker ${index} has no stack: LOBBY_E2E_STACKS names ${files.length}`);
  Object.assign(process.env, JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>);
}
