/**
 * The agent's media session made before its answer (docs/performance.md "Answer → first frame": keep its
 * Janus session and handles warm). While calls wait, the console keeps one Janus session open with its
 * publisher and subscriber handles attached; the answer's media session is this one, handed the call's
 * grant (MediaSession.useGrant), so the session's create and the two attaches are off the answer's path.
 *
 * It is made with the agent's standby token (POST /api/console/media/standby): a token of this agent for
 * no room, with which the gate lets a browser create a session, keep it alive, attach videoroom handles,
 * claim it back and destroy it, and nothing else (docs/security.md "Media plane"). Joining, publishing
 * and subscribing need the room token of the grant. The gate takes a standby token on its websocket
 * only, so only a websocket endpoint is used.
 */
import type { ClockPort } from '../ports/clock.ts';
import type { MediaSessionOptions, StandbyRequest } from '../ports/media.ts';
import type { MediaSession } from './mediaSession.ts';

export type { StandbyRequest };

/** A standby session is replaced when less than this share of its token's life is left (it may become a long call). */
const FRESH_SHARE = 0.5;
/** After a failed preparation (the media server down), the next one waits this long. */
export const STANDBY_RETRY_MS = 10_000;
/**
 * A console told there is nothing to make (a p2p company, or a deployment without standby sessions) asks
 * again after this long (its admin may have changed the call method).
 */
export const P2P_RECHECK_MS = 5 * 60_000;

/** What a standby session is to this class (a MediaSession; unit tests pass fakes). */
export type StandbySession = Pick<MediaSession, 'standBy' | 'useGrant' | 'close' | 'on' | 'prepared'>;

export class MediaStandby<Session extends StandbySession> {
  /** a session ready for an answer */
  #session: Session | null = null;
  #server = '';
  #freshUntil = 0;
  #preparing = false;
  /** no preparation before this time (after a failure, or for a p2p company) */
  #pauseUntil = -Infinity;
  #closed = false;
  #onReady: ((ready: boolean) => void) | undefined;
  /** the last preparation asked for, made again by itself after a pause or a loss (#again) */
  #last: { servers: string[]; request: StandbyRequest } | null = null;
  #cancelAgain: (() => void) | null = null;
  readonly #create: (options: MediaSessionOptions) => Session;
  readonly #clock: ClockPort;

  constructor(create: (options: MediaSessionOptions) => Session, clock: ClockPort) {
    this.#create = create;
    this.#clock = clock;
  }

  #now(): number {
    return this.#clock.now();
  }

  /** True while a session is ready for an answer. */
  get ready(): boolean {
    return this.#usable() !== null;
  }

  /**
   * Makes a standby session on the first websocket endpoint of `servers`, unless one is ready (and not
   * past the first half of its token's life) or being made.
   */
  prepare(servers: string[], request: StandbyRequest): void {
    const server = servers.find((s) => /^wss?:\/\//.test(s));
    this.#closed = false;
    this.#onReady = request.onReady;
    this.#last = { servers, request };
    if (!server || this.#preparing || this.#usable() || this.#now() < this.#pauseUntil) return;
    this.#preparing = true;
    this.#discard(); // a stale one (its `onReady(false)` may bring us back here: #preparing says no)
    void this.#make(server, request).finally(() => (this.#preparing = false));
  }

  async #make(server: string, request: StandbyRequest): Promise<void> {
    let session: Session | null = null;
    try {
      const token = await request.token();
      if (this.#closed) return;
      if ('method' in token || 'standby' in token) {
        // nothing to make ahead: the answer is as ready as it gets
        this.#pauseUntil = this.#now() + P2P_RECHECK_MS;
        this.#onReady?.(true);
        return;
      }
      const made = this.#create({ servers: [server], iceServers: request.iceServers, token: token.token, attempts: 1 });
      session = made;
      // a session whose connection dropped (being claimed back), lost or destroyed (Janus restarted) is
      // no good start for a call: it is ended, and the next preparation makes another
      made.on('reconnecting', () => this.#forget(made));
      made.on('lost', () => this.#forget(made));
      made.on('destroyed', () => this.#forget(made));
      await made.standBy();
      if (this.#closed || !made.prepared) throw new Error('standby: closed while it was made');
      this.#session = made;
      this.#server = server;
      this.#freshUntil = this.#now() + token.expires_in * 1000 * FRESH_SHARE;
      this.#onReady?.(true);
    } catch (error) {
      if (!this.#closed) {
        this.#pauseUntil = this.#now() + STANDBY_RETRY_MS;
        console.warn(`media: no standby session (${String(error)})`);
        this.#again(STANDBY_RETRY_MS);
      }
      void session?.close().catch(() => undefined);
    }
  }

  /**
   * The standby session for a call's media, handed the call's grant (its token and ICE servers), or null
   * (none ready, another endpoint, or no Janus token in the options: a p2p call). Taken once.
   */
  take(options: MediaSessionOptions): Session | null {
    const session = this.#usable();
    if (!session || !options.token || !options.servers.includes(this.#server)) return null;
    this.#session = null;
    this.#onReady?.(false);
    session.useGrant(options.token, options.iceServers);
    return session;
  }

  /** Ends the standby session (the console goes offline). */
  close(): void {
    this.#closed = true;
    this.#cancelAgain?.();
    this.#cancelAgain = null;
    this.#discard();
  }

  /** Prepares again after `ms` (the media server back, a lost session replaced), when one is still wanted. */
  #again(ms: number): void {
    this.#cancelAgain?.();
    this.#cancelAgain = this.#clock.setTimeout(() => {
      this.#cancelAgain = null;
      const last = this.#last;
      if (!last || this.#closed || !(last.request.wanted?.() ?? true)) return;
      this.prepare(last.servers, last.request);
    }, ms);
  }

  #usable(): Session | null {
    const session = this.#session;
    return session && session.prepared && this.#now() < this.#freshUntil ? session : null;
  }

  #forget(session: Session): void {
    if (this.#session !== session) return;
    this.#discard();
    this.#again(0);
  }

  #discard(): void {
    const session = this.#session;
    if (!session) return;
    this.#session = null;
    this.#onReady?.(false);
    void session.close().catch(() => undefined);
  }
}
