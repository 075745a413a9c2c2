/**
 * Runs the tasks given for one key one at a time, in arrival order; other keys run alongside. A guest's
 * simultaneous requests that count what it already has before adding more (its call-bug reports, its
 * open calls: docs/security.md) would otherwise each count the others out. One process only: the
 * database's counts still hold the limits across instances, give or take such a race.
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    // the last task of a key forgets it, so that the map holds only keys with work in flight
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
export type KeyedQueue = ReturnType<typeof createKeyedQueue>;
