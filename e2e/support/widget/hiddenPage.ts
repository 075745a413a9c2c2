/**
 * Test-only init script: a page whose visibility the test switches (`__lobbySetHidden(true)`), and
 * recorders of the browser notifications it shows and of the tones it plays. Headless Chromium never
 * hides a page by itself, so this is how a test puts the guest "in another tab".
 */
export const HIDDEN_PAGE_INIT_SCRIPT = `(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get() { return hidden ? 'hidden' : 'visible'; } });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get() { return hidden; } });
  window.__lobbySetHidden = (value) => { hidden = !!value; document.dispatchEvent(new Event('visibilitychange')); };
  window.__lobbyNotifications = [];
  const Real = window.Notification;
  if (Real) {
    class Recording extends Real {
      constructor(title, options) {
        super(title, options);
        window.__lobbyNotifications.push({ title, body: (options && options.body) || '' });
      }
    }
    Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
    Recording.requestPermission = (...args) => Real.requestPermission(...args);
    window.Notification = Recording;
  }
  window.__lobbyTones = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__lobbyTones += 1; return start.apply(this, args); };
})();`;
