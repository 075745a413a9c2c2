/**
 * Test-only page script, installed before any page script runs:
 * - keeps only 127.0.0.1 ICE candidates (this machine may carry traffic on loopback only); the
 *   listener is added with the native addEventListener in the constructor, so it runs before the
 *   listeners that janus.js and webrtc-adapter add later, and stops the event for other candidates;
 * - records every RTCPeerConnection in window.__lobbyPeerConnections so tests can read getStats()
 *   without any hook in the product.
 */
export const LOOPBACK_ICE_INIT_SCRIPT = `(() => {
  const Native = window.RTCPeerConnection;
  if (!Native || Native.__lobbyWrapped) return;
  const nativeAdd = EventTarget.prototype.addEventListener;
  const all = (window.__lobbyPeerConnections = []);
  window.__lobbyDroppedCandidates = [];
  const isLoopback = (candidate) => {
    const address = (candidate.split(' ')[4] || '').toLowerCase();
    return address === '127.0.0.1' || address === '::1';
  };
  class LoopbackOnlyPeerConnection extends Native {
    constructor(...args) {
      super(...args);
      all.push(this);
      nativeAdd.call(this, 'icecandidate', (event) => {
        const c = event.candidate && event.candidate.candidate;
        if (c && !isLoopback(c)) {
          window.__lobbyDroppedCandidates.push(c);
          event.stopImmediatePropagation();
        }
      });
    }
  }
  LoopbackOnlyPeerConnection.__lobbyWrapped = true;
  window.RTCPeerConnection = LoopbackOnlyPeerConnection;
})();`;
