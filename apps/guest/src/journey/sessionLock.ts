// One XMPP session per guest and browser (resource `web`): tabs of the same guest elect the one
// that holds it with a Web Lock. A second session with the same resource would kick the first off
// (ejabberd resource conflict), so a tab connects only while it holds the lock. The browser releases the
// lock when the holding tab closes, and the next waiting tab gets it: that tab then connects.
export const SESSION_LOCK = 'lobby-guest-session';

/** The part of `navigator.locks` used here (tests pass a fake). */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable?: boolean }, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export interface SessionLock {
  /** Takes the lock if nobody holds it; false when another tab does. */
  tryAcquire(): Promise<boolean>;
  /** Waits for the lock (the holder closes or hands over); resolves once this tab holds it. */
  acquire(): Promise<void>;
  /** Gives the lock up (the next waiting tab gets it). */
  release(): void;
  held(): boolean;
}

export function createSessionLock(locks: LockManagerLike | null): SessionLock {
  let releaseHeld: (() => void) | null = null;
  let waiting: Promise<void> | null = null;

  const request = (ifAvailable: boolean): Promise<boolean> => {
    if (!locks) {
      // no Web Locks (old browser): every tab acts alone, as before leader election
      releaseHeld ??= () => undefined;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve, reject) => {
      locks
        .request(SESSION_LOCK, ifAvailable ? { ifAvailable: true } : {}, (lock) => {
          if (!lock) {
            resolve(false);
            return Promise.resolve();
          }
          // held until release(): the callback's promise is the lock's lifetime
          return new Promise<void>((done) => {
            releaseHeld = () => {
              releaseHeld = null;
              done();
            };
            resolve(true);
          });
        })
        .catch(reject);
    });
  };

  return {
    async tryAcquire() {
      if (releaseHeld) return true;
      return request(true);
    },
    acquire() {
      if (releaseHeld) return Promise.resolve();
      waiting ??= request(false).then(
        () => {
          waiting = null;
        },
        (error: unknown) => {
          waiting = null;
          throw error;
        },
      );
      return waiting;
    },
    release() {
      releaseHeld?.();
    },
    held: () => releaseHeld !== null,
  };
}

let shared: SessionLock | null = null;

/** This page's lock on the guest's session. */
export function sessionLock(): SessionLock {
  shared ??= createSessionLock(
    typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks ? navigator.locks : null,
  );
  return shared;
}
