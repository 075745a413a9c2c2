// The facts the gate needs, each read from the browser or the company (no React).
import type { UnsupportedReason } from './chart.ts';

// Opening hours are read by the server too (it refuses calls outside them): one implementation for both.
export { isOpen, localTime } from '@lobby/contracts/schedule';

export interface BrowserEnv {
  /** false on a page opened over plain HTTP (not on loopback): the browser gives it no camera nor microphone */
  isSecureContext?: boolean;
  RTCPeerConnection?: unknown;
  navigator: { mediaDevices?: { getUserMedia?: unknown }; onLine?: boolean };
}

/** The browser checks (docs/guest-journey.md): WebRTC, media devices, internet. null = supported. */
export function browserCheck(win: BrowserEnv | undefined = typeof window === 'undefined' ? undefined : window): UnsupportedReason | null {
  if (!win) return null;
  // First: an insecure page has no navigator.mediaDevices either, and "use another browser" would be
  // wrong advice; the same page over https works (docs/operations.md "HTTP and HTTPS").
  if (win.isSecureContext === false) return 'insecure';
  if (typeof win.RTCPeerConnection !== 'function') return 'browser';
  if (!win.navigator.mediaDevices || typeof win.navigator.mediaDevices.getUserMedia !== 'function') return 'browser';
  if (win.navigator.onLine === false) return 'network';
  return null;
}

/**
 * Whether an automated browser is allowed to call: the deployment's switch LOBBY_ALLOW_AUTOMATION, which
 * the server sends as company details `allowAutomation` (docs/guest-journey.md "Bots"). Anything but an
 * explicit `true` refuses, so an older server or a failed field shows automated browsers the bot screen.
 */
export function automationAllowed(serverFlag: unknown): boolean {
  return serverFlag === true;
}

export function isAutomated(nav: { webdriver?: boolean } | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  return nav?.webdriver === true;
}

export interface Position {
  latitude: string;
  longitude: string;
}

/** The guest's position (10 s timeout, high accuracy, no cached position), as strings. */
export function readPosition(geo: Geolocation | undefined = typeof navigator === 'undefined' ? undefined : navigator.geolocation): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!geo) {
      reject(new Error('geolocation unavailable'));
      return;
    }
    geo.getCurrentPosition(
      (p) => resolve({ latitude: String(p.coords.latitude), longitude: String(p.coords.longitude) }),
      (e) => reject(new Error(e.message || `geolocation error ${e.code}`)),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 0 },
    );
  });
}
