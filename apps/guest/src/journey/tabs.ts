// Tabs of one guest (same browser, same guestId) coordinate over a BroadcastChannel: a tab that is in a
// call answers "busy", so a second tab shows the inCall screen instead of starting a second call (and a
// second XMPP session with the same resource). "Take the call here" asks the busy tab to hang up.
type Message = { type: 'ping'; from: string } | { type: 'busy'; to: string } | { type: 'takeover' };

export interface GuestTabs {
  inCall(flag: boolean): void;
  /** Whether another tab answers "busy" within `waitMs`. */
  otherTabInCall(waitMs?: number): Promise<boolean>;
  takeOver(): void;
  onTakeOver(listener: () => void): void;
}

export function createGuestTabs(channel: Pick<BroadcastChannel, 'postMessage' | 'addEventListener'> | null): GuestTabs {
  const id = Math.random().toString(36).slice(2);
  let busy = false;
  const takeOverListeners: Array<() => void> = [];
  const waiters = new Set<() => void>();
  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ping' && busy) channel.postMessage({ type: 'busy', to: message.from } satisfies Message);
    else if (message.type === 'busy' && message.to === id) waiters.forEach((w) => w());
    else if (message.type === 'takeover' && busy) takeOverListeners.forEach((l) => l());
  });
  return {
    inCall(flag) {
      busy = flag;
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
