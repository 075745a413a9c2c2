/**
 * The ICE restarts of one Janus session's peer connections (docs/protocol.md "ICE restart"): one
 * IceRestarter (../iceRestart.ts) per handle decides when; this module makes each restart on Janus.
 * `stop` ends a handle's restarts (its peer connection is gone), `stopAll` every one (the close).
 */
import type { ClockPort } from '../../ports/clock.ts';
import type { HandleKind, TellMedia } from '../../ports/media.ts';
import { IceRestarter } from '../iceRestart.ts';
import type { JanusConnection } from './connection.ts';
import type { Handle, Jsep } from './library.ts';

/** A restart request unanswered for this long is taken as lost (its transport was replaced): sent again. */
export const PENDING_RESTART_MS = 40_000;
/**
 * Once the signalling is back (the network returned), how long a `disconnected` path is given to come
 * back by itself before it is restarted: Chromium's consent checks find the old path again within a
 * second or so, and a restart landing after that (seen 100 ms later after a 20 s cut) switches the
 * connection to new credentials for nothing, freezing the incoming video a second time for seconds.
 */
export const PATH_RECOVERY_GRACE_MS = 2500;
/** How often the path's state is read during that grace. */
const PATH_POLL_MS = 100;

export interface JanusIceRestartsOptions {
  connection: JanusConnection;
  /** the handle of each kind now (null: none attached) */
  handle: (kind: HandleKind) => Handle | null;
  clock: ClockPort;
  tell: TellMedia;
}

export class JanusIceRestarts {
  readonly #o: JanusIceRestartsOptions;
  readonly #restarters = new Map<HandleKind, IceRestarter>();
  /**
   * When each handle's last restart was sent and its offer or answer has not come back yet. While the
   * network is gone, a request waits in the websocket's TCP queue; a second restart stacked behind it
   * would reach Janus in the same burst, and the answers would no longer match the offers (another
   * failure, another restart). So a restart is sent again only after PENDING_RESTART_MS.
   */
  readonly #pending = new Map<HandleKind, number>();

  constructor(options: JanusIceRestartsOptions) {
    this.#o = options;
  }

  /** A handle's iceConnectionState changed (janus.js `iceState`). */
  onState(kind: HandleKind, state: RTCIceConnectionState): void {
    this.#restarter(kind).onState(state);
  }

  /** Janus's offer or answer for `kind` came: its restart, if one was sent, is answered. */
  answered(kind: HandleKind): void {
    this.#pending.delete(kind);
  }

  /** The handle's peer connection is gone (the screen share ended). */
  stop(kind: HandleKind): void {
    this.#restarters.get(kind)?.stop();
    this.#restarters.delete(kind);
  }

  stopAll(): void {
    for (const restarter of this.#restarters.values()) restarter.stop();
  }

  #restarter(kind: HandleKind): IceRestarter {
    let restarter = this.#restarters.get(kind);
    if (!restarter) {
      restarter = new IceRestarter({
        restart: () => this.#restart(kind),
        clock: this.#o.clock,
        onRestarting: () => this.#tell('iceRestarting', kind),
        onRecovered: () => this.#tell('iceRestarted', kind),
        onFailed: () => this.#tell('iceFailed', kind),
      });
      this.#restarters.set(kind, restarter);
    }
    return restarter;
  }

  #tell(event: 'iceRestarting' | 'iceRestarted' | 'iceFailed', handle: HandleKind): void {
    if (event !== 'iceRestarting') this.#pending.delete(handle);
    if (!this.#o.connection.ended) this.#o.tell(event, { handle });
  }

  /**
   * One ICE restart. A publisher (camera or screen) offers again with new ICE credentials (janus.js
   * createOffer iceRestart) in a `configure`; the subscriber asks Janus for a restarted offer (VideoRoom
   * `configure` with `restart: true`), answered as any subscriber offer (subscriber.ts → `start`). One
   * request, not the retries of docs/protocol.md "Constants": the restarter tries again itself.
   */
  async #restart(kind: HandleKind): Promise<void> {
    const { connection, clock } = this.#o;
    if (connection.ended) return;
    const handle = this.#o.handle(kind);
    if (!handle) return;
    await connection.renewTransport();
    // back by itself meanwhile or within a moment of the network's return (the old path works again),
    // or over: nothing to restart
    if (connection.ended || (await this.#pathRecovers(handle))) return;
    const pending = this.#pending.get(kind);
    if (pending !== undefined && clock.now() - pending < PENDING_RESTART_MS) {
      console.info(`media: ICE restart of the ${kind} still under way`);
      return;
    }
    this.#pending.set(kind, clock.now());
    console.info(`media: ICE restart of the ${kind}`);
    if (kind === 'subscriber') {
      await connection.request(handle, { request: 'configure', restart: true });
      return;
    }
    const jsep = await new Promise<Jsep>((resolve, reject) =>
      handle.createOffer({ iceRestart: true, success: resolve, error: (e) => reject(e instanceof Error ? e : new Error(String(e))) }),
    );
    await connection.request(handle, { request: 'configure' }, jsep);
  }

  /**
   * Whether the handle's connection is up again (or over) within PATH_RECOVERY_GRACE_MS. A `failed`
   * connection does not come back by itself: no wait.
   */
  async #pathRecovers(handle: Handle): Promise<boolean> {
    const { connection, clock } = this.#o;
    const deadline = clock.now() + PATH_RECOVERY_GRACE_MS;
    for (;;) {
      const state = handle.webrtcStuff?.pc?.iceConnectionState;
      if (connection.ended || state === 'connected' || state === 'completed' || state === 'closed') return true;
      if (state === 'failed' || clock.now() >= deadline) return false;
      await new Promise<void>((resolve) => clock.setTimeout(resolve, PATH_POLL_MS));
    }
  }
}
