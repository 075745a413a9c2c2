/**
 * The queue rows' details requests (GET /api/console/calls/{callId}), held to what is on screen
 * (docs/performance.md "Waiting guests"): only the rows the virtual list draws ask, a row asks only once
 * it stayed drawn for SETTLE_MS (a row that flies past while the agent scrolls asks nothing), at most
 * MAX_IN_FLIGHT requests run at once (the rest wait their turn, and leave the line when their row is
 * scrolled away), and an answer is kept for the next time the row is drawn. A guest's details do not
 * change while it waits: its welcome form came before its call.
 */
import { getCallDetails, type CallDetails } from '../../api/calls.ts';

export const MAX_IN_FLIGHT = 4;
export const SETTLE_MS = 150;
/** answers kept (the rows drawn recently); the oldest goes first */
export const CACHE_SIZE = 300;

type Fetch = (callId: string, signal: AbortSignal) => Promise<CallDetails>;

export interface DetailsLoader {
  /** the details already fetched, if any */
  cached(callId: string): CallDetails | undefined;
  /** fetches once the row settled and a place is free; rejects with the signal's reason when aborted first */
  load(callId: string, signal: AbortSignal): Promise<CallDetails>;
}

export function createDetailsLoader(fetchDetails: Fetch = getCallDetails, limit = MAX_IN_FLIGHT, settleMs = SETTLE_MS): DetailsLoader {
  const cache = new Map<string, CallDetails>();
  const waiting: Array<() => void> = [];
  let running = 0;

  const remember = (callId: string, details: CallDetails) => {
    cache.delete(callId);
    cache.set(callId, details);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  };
  const next = () => {
    while (running < limit && waiting.length) waiting.shift()!();
  };
  const aborted = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));

  return {
    cached: (callId) => cache.get(callId),
    load: (callId, signal) =>
      new Promise<CallDetails>((resolve, reject) => {
        if (signal.aborted) return reject(aborted(signal));
        const start = () => {
          signal.removeEventListener('abort', leave);
          running++;
          fetchDetails(callId, signal)
            .then((details) => {
              remember(callId, details);
              resolve(details);
            }, reject)
            .finally(() => {
              running--;
              next();
            });
        };
        const queue = () => {
          waiting.push(start);
          next();
        };
        const settle = setTimeout(queue, settleMs);
        function leave() {
          clearTimeout(settle);
          const at = waiting.indexOf(start);
          if (at >= 0) waiting.splice(at, 1);
          reject(aborted(signal));
        }
        signal.addEventListener('abort', leave, { once: true });
      }),
  };
}

/** the console's one loader: every queue row shares its limit and its answers */
export const detailsLoader = createDetailsLoader();
