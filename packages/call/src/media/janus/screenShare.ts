/**
 * Our screen share: a second publisher named `{display}-screen` on its own handle (docs/protocol.md
 * "Media session"). `stop` is its cleanup: the track stopped, its ICE restarts ended, the handle left,
 * hung up and detached; the browser's own end of the share (the track's `ended`) stops it too.
 */
import type { RoomOptions, TellMedia } from '../../ports/media.ts';
import type { JanusConnection } from './connection.ts';
import type { Attach, Handle, Jsep } from './library.ts';
import { joinAsPublisher } from './publisher.ts';

export interface JanusScreenShareOptions {
  connection: JanusConnection;
  attach: Attach;
  tell: TellMedia;
  /** Janus's offer or answer came for the screen (its ICE restart is answered) */
  answered: () => void;
  /** the screen's peer connection is gone: its ICE restarts end */
  stopRestarts: () => void;
}

export class JanusScreenShare {
  readonly #o: JanusScreenShareOptions;
  #handle: Handle | null = null;
  #id: string | null = null;
  #track: MediaStreamTrack | null = null;

  constructor(options: JanusScreenShareOptions) {
    this.#o = options;
  }

  get handle(): Handle | null {
    return this.#handle;
  }

  /** the screen publisher's id in the room, while it is shared */
  get id(): string | null {
    return this.#id;
  }

  get sharing(): boolean {
    return this.#handle !== null;
  }

  /** Shares `track` in `room` as `{display}-screen`; resolves once Janus configured it. */
  async start(track: MediaStreamTrack, room: RoomOptions, display: string): Promise<void> {
    const { connection } = this.#o;
    let joinedId: (id: string) => void = () => undefined;
    const joined = new Promise<string>((resolve) => (joinedId = resolve));
    let configured: () => void = () => undefined;
    const isConfigured = new Promise<void>((resolve) => (configured = resolve));
    const screen = await this.#o.attach('screen', {
      onmessage: (msg, jsep) => {
        if (msg.videoroom === 'joined') joinedId(String(msg.id));
        if (jsep) {
          this.#o.answered();
          screen.handleRemoteJsep({ jsep });
        }
        if (msg.configured === 'ok') configured();
      },
    });
    this.#handle = screen;
    this.#track = track;
    track.addEventListener('ended', () => void this.stop().then(() => this.#o.tell('screenEnded', undefined)));
    await joinAsPublisher(connection, screen, room, `${display}-screen`);
    this.#id = await joined;
    const jsep = await connection.retried(
      () =>
        new Promise<Jsep>((resolve, reject) =>
          screen.createOffer({ tracks: [{ type: 'screen', capture: track, recv: false }], success: resolve, error: reject }),
        ),
      true,
    );
    await connection.retried(() => connection.request(screen, { request: 'configure', audio: false, video: true }, jsep));
    await isConfigured;
  }

  async stop(): Promise<void> {
    const screen = this.#handle;
    this.#handle = null;
    this.#id = null;
    this.#track?.stop();
    this.#track = null;
    this.#o.stopRestarts();
    if (!screen) return;
    await this.#o.connection.request(screen, { request: 'leave' }).catch(() => undefined);
    await this.#o.connection.detach(screen);
  }
}
