/**
 * Our camera's publisher on the Janus videoroom (docs/protocol.md "Media session" steps 1–2, "Media
 * room"): attach, join the room as a publisher (the pin in lowercase), publish (offer, `configure`), and
 * the room's news it carries — who else publishes (the subscriber follows them), who left, the room
 * destroyed. Its tracks (mute, devices, watermark, noise suppression) are publishedTracks.ts. `leave` is its cleanup.
 */
import type { JanusJS } from 'janus-gateway';
import type { Publisher, PublishOptions, RoomOptions, TellMedia } from '../../ports/media.ts';
import { startSmall } from '../startSmall.ts';
import type { JanusConnection } from './connection.ts';
import { pluginError, type Attach, type Handle, type Jsep, type Message } from './library.ts';
import { PublishedTracks } from './publishedTracks.ts';
import type { SuppressNoise } from '../noise/suppression.ts';

/** Who we are in the room once joined, and who published before us. */
export interface Joined {
  id: string;
  privateId?: number;
  publishers: Publisher[];
}

export interface JanusPublisherOptions {
  connection: JanusConnection;
  attach: Attach;
  tell: TellMedia;
  /** Janus's offer or answer came for the publisher (its ICE restart is answered) */
  answered: () => void;
  /** others' publishers announced in the room */
  onPublishers: (publishers: Publisher[]) => void;
  /** a publisher left or stopped publishing */
  onFeedGone: (feedId: string) => void;
  /** the noise suppressor (media/noise/suppression.ts); RNNoise's by default */
  suppressNoise?: SuppressNoise;
}

/** A publisher's join request (the pin in lowercase), retried (docs/protocol.md "Constants"). */
export function joinAsPublisher(connection: JanusConnection, handle: Handle, room: RoomOptions, display: string): Promise<Message> {
  return connection.retried(() =>
    connection.request(handle, { request: 'join', ptype: 'publisher', room: room.room, pin: room.pin.toLowerCase(), display }),
  );
}

/** The publishers of a videoroom event, their ids as strings. */
export function toPublishers(value: unknown): Publisher[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((p): p is { id: string | number; display?: string } => !!p && typeof p === 'object' && 'id' in p)
    .map((p) => ({ ...(p as Publisher), id: String(p.id), display: p.display ?? '' }));
}

export class JanusPublisher {
  readonly #o: JanusPublisherOptions;
  #handle: Handle | null = null;
  #room: RoomOptions | null = null;
  #display = '';
  #joined: Joined | null = null;
  #joinWaiters: ((value: Joined) => void)[] = [];
  #joinFailures: ((error: Error) => void)[] = [];
  #configured: (() => void) | null = null;
  readonly tracks: PublishedTracks;

  constructor(options: JanusPublisherOptions) {
    this.#o = options;
    this.tracks = new PublishedTracks({
      handle: () => this.#handle,
      ended: () => options.connection.ended,
      ...(options.suppressNoise ? { suppressNoise: options.suppressNoise } : {}),
    });
  }

  get handle(): Handle | null {
    return this.#handle;
  }

  /** the room joined (or being joined), null before */
  get room(): RoomOptions | null {
    return this.#room;
  }

  get display(): string {
    return this.#display;
  }

  /** our publisher's id and private id in the room, once joined */
  get joined(): Joined | null {
    return this.#joined;
  }

  async attach(): Promise<void> {
    if (this.#handle) return;
    this.#handle = await this.#o.attach('publisher', {
      onmessage: (msg, jsep) => this.#onMessage(msg, jsep),
      onlocaltrack: () => undefined,
      onremotetrack: () => undefined,
    });
  }

  #require(): Handle {
    if (!this.#handle) throw new Error('Invalid plugin');
    return this.#handle;
  }

  /** Joins the room as a publisher; resolves with who published before us. */
  async join(room: RoomOptions, display: string): Promise<Joined> {
    const handle = this.#require();
    this.#room = room;
    this.#display = display;
    const joined = new Promise<Joined>((resolve, reject) => {
      this.#joinWaiters.push(resolve);
      this.#joinFailures.push(reject);
    });
    await joinAsPublisher(this.#o.connection, handle, room, display);
    this.#joined = await joined;
    return this.#joined;
  }

  /** Publishes local media ("Media session" step 2). Resolves when Janus has configured the stream. */
  async publish(options: PublishOptions): Promise<void> {
    const handle = this.#require();
    const { connection, tell } = this.#o;
    this.tracks.use(options.stream, options.watermark ?? null);
    const tracks: JanusJS.TrackOption[] = [];
    const audio = options.stream.getAudioTracks()[0];
    const video = options.stream.getVideoTracks()[0];
    // dontStop: the microphone outlives its sender's track when noise suppression is switched (publishedTracks.ts)
    if (options.audio && audio) tracks.push({ type: 'audio', capture: audio, recv: false, dontStop: true });
    if (options.video && video) tracks.push({ type: 'video', capture: this.tracks.sendable(video), recv: false });
    let jsep: Jsep;
    try {
      jsep = await connection.retried(
        () => new Promise<Jsep>((resolve, reject) => handle.createOffer({ tracks, success: resolve, error: (e) => reject(e) })),
        true,
      );
      tell('stage', { stage: 'createOffer', ok: true });
    } catch (error) {
      tell('stage', { stage: 'createOffer', ok: false, error: String(error) });
      throw error;
    }
    // its first frames small enough for the start rate (media/startSmall.ts): set before any is encoded
    const pc = handle.webrtcStuff?.pc;
    if (pc && options.video) startSmall(pc);
    const configured = new Promise<void>((resolve) => (this.#configured = resolve));
    // no record/filename: the server records the room (the gate refuses them)
    const body: Record<string, unknown> = { request: 'configure', audio: options.audio, video: options.video };
    await connection.retried(() => connection.request(handle, body, jsep));
    await configured;
    tell('stage', { stage: 'localStream', ok: true });
    // the microphone is sent at once; its noise-suppressed copy takes its place once RNNoise runs, so the
    // call's set-up never waits for it (docs/architecture.md "Noise suppression")
    if (options.audio && audio && options.noiseSuppression) void this.tracks.setNoiseSuppression(true).catch(() => undefined);
  }

  #onMessage(msg: Message, jsep?: Jsep): void {
    const error = pluginError(msg);
    if (msg.videoroom === 'joined') {
      this.#joinFailures = [];
      const joined = { id: String(msg.id), privateId: msg.private_id as number | undefined, publishers: toPublishers(msg.publishers) };
      for (const resolve of this.#joinWaiters.splice(0)) resolve(joined);
    } else if (msg.videoroom === 'event') {
      if (error && this.#joinFailures.length) {
        this.#joinWaiters = [];
        for (const reject of this.#joinFailures.splice(0)) reject(error);
        return;
      }
      if (msg.publishers) this.#o.onPublishers(toPublishers(msg.publishers));
      const gone: unknown = msg.unpublished ?? msg.leaving;
      if ((typeof gone === 'string' || typeof gone === 'number') && gone !== 'ok') this.#o.onFeedGone(String(gone));
    } else if (msg.videoroom === 'destroyed') {
      this.#o.tell('destroyed', undefined);
    }
    if (msg.configured === 'ok' && this.#configured) {
      this.#configured();
      this.#configured = null;
    }
    if (jsep) {
      this.#o.answered();
      this.#handle?.handleRemoteJsep({ jsep });
    }
  }

  /**
   * Leaves the room (always: the server destroys the room when the call ends, the others see us leave)
   * and stops our tracks.
   */
  async leave(): Promise<void> {
    const handle = this.#handle;
    if (handle && this.#room) await this.#o.connection.request(handle, { request: 'leave' }).catch(() => undefined);
    this.tracks.stop();
  }

  /** The session was lost (Janus restarted): no `leave` (nothing would answer it); its connection and tracks stop. */
  abandon(): void {
    this.#handle?.hangup();
    this.tracks.stop();
  }
}
