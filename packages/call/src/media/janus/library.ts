/**
 * janus.js, loaded on first use with webrtc-adapter (both are large), and the words of its API the Janus
 * modules share (docs/architecture.md "Media modules").
 */
import type { JanusJS } from 'janus-gateway';
import { takeWarmSocket } from '../warmSocket.ts';

export type JanusClass = typeof JanusJS.Janus;
export type JanusInstance = InstanceType<JanusClass>;
export type Handle = JanusJS.PluginHandle;
export type Message = JanusJS.Message;
export type Jsep = JanusJS.JSEP;
export type PluginCallbacks = JanusJS.PluginCallbacks;

/** A websocket janus.js opened, watched so that a close before its session exists is not ignored. */
let watchSocket: ((ws: WebSocket) => void) | null = null;

/**
 * Sees the websockets janus.js opens while `open` runs: janus.js opens them synchronously in
 * `new Janus()` and `reconnect()` (and ignores a close before its session exists).
 */
export function watchingSockets<T>(watch: (ws: WebSocket) => void, open: () => T): T {
  watchSocket = watch;
  try {
    return open();
  } finally {
    watchSocket = null;
  }
}

let janusReady: Promise<JanusClass> | null = null;

/** Loads janus.js with webrtc-adapter (lazy: both are large). */
export function loadJanus(debug = false): Promise<JanusClass> {
  janusReady ??= (async () => {
    const [{ default: Janus }, { default: adapter }] = await Promise.all([
      import('janus-gateway'),
      import('webrtc-adapter'),
    ]);
    await new Promise<void>((resolve) =>
      Janus.init({
        debug,
        callback: () => resolve(),
        dependencies: Janus.useDefaultDependencies({ adapter }),
      }),
    );
    // (janus.js sets newWebSocket in init(); its type declarations leave it out)
    const withSockets = Janus as unknown as { newWebSocket: (server: string, protocol: string) => WebSocket };
    const open = withSockets.newWebSocket;
    withSockets.newWebSocket = (server, protocol) => {
      // a socket the console opened while calls waited (warmSocket.ts), else a new one
      const ws = takeWarmSocket(server, protocol) ?? open(server, protocol);
      watchSocket?.(ws);
      return ws;
    };
    return Janus;
  })();
  return janusReady;
}

/** The error a plugin's answer carries, if any. */
export function pluginError(message: Message): Error | null {
  if (message.error_code || message.error) {
    return new Error(`Ooops: ${String(message.error_code ?? '')} ${String(message.error ?? '')}`.trim());
  }
  return null;
}

/** Attaches a videoroom handle of `kind` (the session's attach, with its ICE restarts wired). */
export type Attach = (kind: 'publisher' | 'subscriber' | 'screen', callbacks: PluginCallbacks) => Promise<Handle>;
