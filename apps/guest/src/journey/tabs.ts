// Tabs of one guest (same browser, same guestId) coordinate over a BroadcastChannel: a tab that is in a
// call answers "busy", so a second tab can say so on its inCall screen. Which tab holds the guest's XMPP
// session is decided by a Web Lock (sessionLock.ts); "Use this tab" asks the holder to hand it over: it
// hangs up (when in a call), disconnects and releases the lock.
type Message = { type: 'ping'; from: string } | { type: 'busy'; to: string } | { type: 'takeover' };

export interface GuestTabs {
  inCall(flag: boolean): void;
  /** This tab holds the guest's session: a "takeover" is for it even when it is not in a call. */
  holding(flag: boolean): void;
  /** Whether another tab answers "busy" within `waitMs`. */
  otherTabInCall(waitMs?: number): Promise<boolean>;
  takeOver(): void;
  onTakeOver(listener: () => void): void;
}

export function createGuestTabs(channel: Pick<BroadcastChannel, 'postMessage' | 'addEventListener'> | null): GuestTabs {
  const id = Math.random().toString(36).slice(2);
  let busy = false;
  let holder = false;
  const takeOverListeners: Array<() => void> = [];
  const waiters = new Set<() => void>();
  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ping' && busy) channel.postMessage({ type: 'busy', to: message.from } satisfies Message);
    else if (message.type === 'busy' && message.to === id) waiters.forEach((w) => w());
    else if (message.type === 'takeover' && (busy || holder)) takeOverListeners.forEach((l) => l());
  });
  return {
    inCall(flag) {
      busy = flag;
    },
    holding(flag) {
      holder = flag;
    },
    otherTabInCall(waitMs = 250) {
      if (!channel) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = (value: boolean) => {
          waiters.delete(yes);
          clearTimeout(timer);
          resolve(value);
        };
        const yes = () => done(true);
        waiters.add(yes);
        const timer = setTimeout(() => done(false), waitMs);
        channel.postMessage({ type: 'ping', from: id } satisfies Message);
      });
    },
    takeOver() {
      channel?.postMessage({ type: 'takeover' } satisfies Message);
    },
    onTakeOver(listener) {
      takeOverListeners.push(listener);
    },
  };
}

let shared: GuestTabs | null = null;

/** This page's tabs coordinator (one channel per page). */
export function guestTabs(): GuestTabs {
  shared ??= createGuestTabs(typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('lobby-guest'));
  return shared;
}
