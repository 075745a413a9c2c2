// The waiting guest's place and estimate (docs/guest-journey.md "Place in the queue and estimate"):
// asked of the server while the call waits, at once and then every POLL_MS, and again when the page comes
// back into view. A failed ask keeps the last answer: the wait goes on whatever the network says.
import { apiRequest } from '@lobby/call/http';
import type { WaitPlace } from '@lobby/contracts';

export const WAIT_POLL_MS = 10_000;

export interface WaitPlaceWatch {
  token: string;
  callId: string;
  onPlace(place: WaitPlace): void;
  /** injected by tests */
  request?: typeof apiRequest;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

/** Starts asking; returns the function that stops. */
export function watchWaitPlace(watch: WaitPlaceWatch): () => void {
  const request = watch.request ?? apiRequest;
  const every = watch.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const clear = watch.clearInterval ?? ((h) => clearInterval(h as ReturnType<typeof setInterval>));
  let stopped = false;
  let asking = false;
  const ask = async () => {
    if (stopped || asking) return;
    asking = true;
    try {
      const place = await request<WaitPlace>('/call-report/wait', {
        token: watch.token,
        query: { call_id: watch.callId },
      });
      if (!stopped && place) watch.onPlace(place);
    } catch {
      // the last answer stays on screen; the next tick asks again
    } finally {
      asking = false;
    }
  };
  void ask();
  const timer = every(() => void ask(), WAIT_POLL_MS);
  const onVisible = () => {
    if (typeof document !== 'undefined' && document.visibilityState === 'visible') void ask();
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  return () => {
    stopped = true;
    clear(timer);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
  };
}
