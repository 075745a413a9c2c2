import { describe, expect, it } from 'vitest';
import { createSessionLock, type LockManagerLike } from '../src/journey/sessionLock.ts';

/** An exclusive lock manager like the browser's: one holder, the others queue in order. */
function fakeLocks(): LockManagerLike {
  let held = false;
  const queue: Array<() => void> = [];
  const grant = (callback: (lock: unknown) => Promise<unknown>) =>
    callback({ name: 'lock' }).finally(() => {
      held = false;
      const next = queue.shift();
      next?.();
    });
  return {
    request(_name, options, callback) {
      if (!held) {
        held = true;
        return grant(callback);
      }
      if (options.ifAvailable) return callback(null);
      return new Promise((resolve) => {
        queue.push(() => {
          held = true;
          resolve(grant(callback));
        });
      });
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('session lock (one tab holds the guest session)', () => {
  it('when two tabs open, then only the first holds the session', async () => {
    const locks = fakeLocks();
    const first = createSessionLock(locks);
    const second = createSessionLock(locks);
    expect(await first.tryAcquire()).toBe(true);
    expect(await second.tryAcquire()).toBe(false);
    expect(first.held()).toBe(true);
    expect(second.held()).toBe(false);
  });

  it('when the holder releases (closes or hands over), then the waiting tab gets the session', async () => {
    const locks = fakeLocks();
    const first = createSessionLock(locks);
    const second = createSessionLock(locks);
    await first.tryAcquire();
    let got = false;
    void second.acquire().then(() => (got = true));
    await tick();
    expect(got).toBe(false);
    first.release();
    await tick();
    expect(got).toBe(true);
    expect(second.held()).toBe(true);
    expect(await first.tryAcquire()).toBe(false);
  });

  it('when the browser has no Web Locks, then every tab acts alone', async () => {
    const lone = createSessionLock(null);
    expect(await lone.tryAcquire()).toBe(true);
    await expect(lone.acquire()).resolves.toBeUndefined();
  });
});
