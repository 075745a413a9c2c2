/** The console's server-sent event stream, kept open across a restart of the Lobby server. */
/** Waits before opening a closed event stream again: 1 s, doubling, at most 30 s. */
const REOPEN_MS = { first: 1000, max: 30_000 };

/**
 * Keeps a server-sent event stream open across restarts. EventSource reconnects by itself after a network
 * error, but not after an answer that is not a 200 event stream: while the Lobby server restarts, nginx
 * answers 502 and the browser closes the stream for good, so the console would never hear of a new call
 * again. Such a closed stream is opened anew (with a growing delay); `live` follows each one.
 */
export function keepEventStream(
  open: () => EventSource,
  wire: (source: EventSource) => void,
  live: (live: boolean) => void,
): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let delay = REOPEN_MS.first;
  let stopped = false;
  const start = () => {
    timer = null;
    const current = open();
    source = current;
    wire(current);
    current.addEventListener('open', () => {
      delay = REOPEN_MS.first;
      live(true);
    });
    current.addEventListener('error', () => {
      live(false);
      if (stopped || current.readyState !== 2 /* CLOSED: the browser gave up */ || timer) return;
      current.close();
      timer = setTimeout(start, delay);
      delay = Math.min(delay * 2, REOPEN_MS.max);
    });
  };
  start();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    source?.close();
  };
}
