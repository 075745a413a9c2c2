/**
 * A websocket to the media server opened before it is needed (docs/performance.md "Answer → first frame"): a
 * console with calls waiting keeps one open, and the agent's next media session takes it instead of
 * opening its own, so the connection (TCP, the websocket upgrade through nginx and the gate, and the
 * gate's own connection to Janus) is off the answer's path. No Janus session exists on it until the
 * answer's grant brings a token for one room: the gate refuses every request without such a token, so
 * an idle warm socket can do nothing.
 */
const PROTOCOL = 'janus-protocol';
const warm = new Map<string, WebSocket>();

const usable = (ws: WebSocket) => ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING;

/** Opens a websocket to `server` (a ws:// or wss:// Janus endpoint) unless one is open or opening. */
export function warmSocket(server: string): void {
  if (!/^wss?:\/\//.test(server) || typeof WebSocket === 'undefined') return;
  const existing = warm.get(server);
  if (existing && usable(existing)) return;
  const ws = new WebSocket(server, PROTOCOL);
  warm.set(server, ws);
  const drop = () => {
    if (warm.get(server) === ws) warm.delete(server);
  };
  ws.addEventListener('close', drop);
  ws.addEventListener('error', drop);
}

/**
 * The warm websocket to `server`, handed over once (null when there is none, or it closed). janus.js adds
 * its listeners when the socket is returned to it and then waits for `open`: a socket that is already
 * open gets its `open` told again, after those listeners are there.
 */
export function takeWarmSocket(server: string, protocol: string): WebSocket | null {
  const ws = warm.get(server);
  if (!ws || protocol !== PROTOCOL || !usable(ws)) return null;
  warm.delete(server);
  if (ws.readyState === WebSocket.OPEN) setTimeout(() => ws.dispatchEvent(new Event('open')), 0);
  return ws;
}
