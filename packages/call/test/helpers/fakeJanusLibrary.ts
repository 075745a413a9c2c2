/**
 * What janus.js's Janus class offers besides sessions, for tests that replace the module (`vi.mock`):
 * init, its dependencies, WebRTC support, random strings and the websocket factory. A test's fake Janus
 * extends it with the session and handles it needs.
 */
export class FakeJanusLibrary {
  static init(options: { callback: () => void }): void {
    options.callback();
  }
  static useDefaultDependencies = () => ({});
  static isWebrtcSupported = () => true;
  static randomString = () => 'x';
  static newWebSocket = () => ({}) as WebSocket;
  getSessionId = () => 1;
  destroy(): void {}
}

/** A fake Janus whose session is made on the next tick (its `success` called), as janus.js's is once connected. */
export class ConnectedFakeJanus extends FakeJanusLibrary {
  constructor(options: { success: () => void }) {
    super();
    setTimeout(options.success, 0);
  }
}
