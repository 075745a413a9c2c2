/**
 * The composition of the call engines (docs/architecture.md "Ports"): the one place that builds the real
 * adapters behind the ports of ports/ — StanzaJS (xmpp/), janus.js or a Jingle peer (media/), the
 * browser's devices, clock and page. CallRoom asks for them here; every port is replaceable by
 * `overrides` (unit tests pass fakes: test/helpers/fakes.ts). Nothing below room/ imports this file.
 */
import type { CallPorts } from './ports/callPorts.ts';
import type { ClockPort } from './ports/clock.ts';
import type { EnvironmentPort } from './ports/environment.ts';
import { MediaSession } from './media/mediaSession.ts';
import { getLocalMedia } from './media/devices.ts';
import { warmSocket } from './media/warmSocket.ts';
import { MediaStandby } from './media/standby.ts';
import { P2PTransport } from './media/p2pTransport.ts';
import { XmppSession } from './xmpp/session.ts';

export const browserEnvironment: EnvironmentPort = {
  pageHidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  onVisibilityChange(listener) {
    if (typeof document === 'undefined') return () => undefined;
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
  isAndroid: () =>
    typeof navigator !== 'undefined' && /Android/i.test(navigator.userAgent) && /Mobile/i.test(navigator.userAgent),
  notificationAllowed: () => typeof Notification !== 'undefined' && Notification.permission === 'granted',
  userAgent: () => (typeof navigator !== 'undefined' ? navigator.userAgent : 'unknown'),
};

/** The one real clock: every module that waits or reads the time is handed this (or a test's fake). */
export const browserClock: ClockPort = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

/** The real ports (StanzaJS, janus.js, the browser), each replaceable by `overrides`. */
export function defaultPorts(overrides: Partial<CallPorts> = {}): CallPorts {
  const clock = overrides.clock ?? browserClock;
  const janus = (options: ConstructorParameters<typeof MediaSession>[0]) => new MediaSession(options, clock);
  // one standby session per engine (its CallRoom makes its ports once)
  const standby = new MediaStandby(janus, clock);
  return {
    signalling: (options) => new XmppSession(options),
    media: (options) => {
      if (options.p2p) return new P2PTransport(options.p2p);
      return standby.take(options) ?? janus(options);
    },
    warmMedia: (servers, request) => {
      if (servers[0]) warmSocket(servers[0]);
      if (request) standby.prepare(servers, request);
    },
    coolMedia: () => standby.close(),
    devices: {
      getUserMedia: (request) => getLocalMedia(request),
      getDisplayMedia: () => navigator.mediaDevices.getDisplayMedia({ video: true, audio: false }),
    },
    clock,
    environment: browserEnvironment,
    ...overrides,
  };
}
