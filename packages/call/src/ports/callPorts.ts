/**
 * The ports of the call engines (docs/architecture.md "Ports"): everything GuestCall, AgentDesk and their
 * shared CallRoom need from the outside world comes in through these interfaces, so that the engines
 * never construct an XMPP or a Janus session nor reach `navigator` / `document` themselves. The
 * composition (../composition.ts) wires the real ones; unit tests pass fakes (test/helpers/fakes.ts).
 *
 * The API port is the engines' `api` option (GuestApi / ConsoleApi), an interface already.
 */
import type { XmppSessionOptions } from '../xmpp/session.ts';
import type { ClockPort } from './clock.ts';
import type { DevicesPort } from './devices.ts';
import type { EnvironmentPort } from './environment.ts';
import type { MediaTransport, MediaTransportOptions, StandbyRequest } from './media.ts';
import type { SignallingPort } from './signalling.ts';

export interface CallPorts {
  signalling: (options: XmppSessionOptions) => SignallingPort;
  media: (options: MediaTransportOptions) => MediaTransport;
  /**
   * Opens the connection to the media server ahead of a call (the first of `servers`), for the next
   * media session to take (media/warmSocket.ts), and with `standby` a whole Janus session with its
   * handles, which the next call's `media` is then (media/standby.ts); optional: without it, a session
   * opens its own.
   */
  warmMedia?: (servers: string[], standby?: StandbyRequest) => void;
  /** Ends what warmMedia made (the console goes offline). */
  coolMedia?: () => void;
  devices: DevicesPort;
  clock: ClockPort;
  environment: EnvironmentPort;
}
