/**
 * A media session on the Janus videoroom plugin (docs/protocol.md "Media session", "Media room"), the
 * Janus side of the MediaTransport port (ports/media.ts).
 *
 * One session per call: a publisher handle (own camera/microphone), an optional second publisher for
 * the screen (`{display}-screen`), and one multistream subscriber handle that carries every other
 * participant's feeds. This class only composes the modules of media/janus/ (docs/architecture.md
 * "Media modules"), after janode's shape: the connection (connect, fail-over, reclaim), the publisher
 * and its tracks (publish, mute, devices, watermark), the screen share, the subscriber (feeds) and the
 * ICE restarts; a standby session (media/standby.ts) is one of these made before its call.
 */
import { Emitter } from '../emitter.ts';
import type { ClockPort } from '../ports/clock.ts';
import type {
  ChangeDevicesOptions,
  CloseOptions,
  DeviceChoice,
  HandleKind,
  MediaEvents,
  MediaSessionOptions,
  Publisher,
  PublishOptions,
  RemoteFeed,
  RoomOptions,
  TellMedia,
} from '../ports/media.ts';
import { JanusConnection } from './janus/connection.ts';
import { JanusIceRestarts } from './janus/iceRestarts.ts';
import type { Attach } from './janus/library.ts';
import { JanusPublisher } from './janus/publisher.ts';
import { JanusScreenShare } from './janus/screenShare.ts';
import { JanusSubscriber } from './janus/subscriber.ts';

// the engines' files import these two from here
export type { CallStage, RemoteFeed } from '../ports/media.ts';
export { loadJanus } from './janus/library.ts';

export class MediaSession extends Emitter<MediaEvents> {
  readonly #connection: JanusConnection;
  readonly #restarts: JanusIceRestarts;
  readonly #publisher: JanusPublisher;
  readonly #screen: JanusScreenShare;
  readonly #subscriber: JanusSubscriber;

  /** `clock`: the engines' ClockPort (the composition hands the browser's). */
  constructor(options: MediaSessionOptions, clock: ClockPort) {
    super();
    const tell: TellMedia = (event, payload) => this.emit(event, payload);
    const connection = (this.#connection = new JanusConnection({
      servers: options.servers,
      ...(options.iceServers ? { iceServers: options.iceServers } : {}),
      ...(options.token ? { token: options.token } : {}),
      ...(options.debug !== undefined ? { debug: options.debug } : {}),
      attempts: options.attempts ?? 20,
      clock,
      tell,
    }));
    const handle = (kind: HandleKind) =>
      (kind === 'publisher' ? this.#publisher : kind === 'screen' ? this.#screen : this.#subscriber).handle;
    const restarts = (this.#restarts = new JanusIceRestarts({ connection, handle, clock, tell }));
    // every handle's path is watched for ICE restarts from its attach on
    const attach: Attach = (kind, callbacks) =>
      connection.attach(kind, { iceState: (state) => restarts.onState(kind, state), ...callbacks });
    this.#subscriber = new JanusSubscriber({
      connection,
      attach,
      tell,
      answered: () => restarts.answered('subscriber'),
      room: () => this.#publisher.room,
      privateId: () => this.#publisher.joined?.privateId,
      isOwn: (publisher) => this.#isOwn(publisher),
    });
    this.#publisher = new JanusPublisher({
      connection,
      attach,
      tell,
      answered: () => restarts.answered('publisher'),
      onPublishers: (publishers) => this.#subscriber.subscribeTo(publishers),
      onFeedGone: (feedId) => this.#subscriber.feedGone(feedId),
      ...(options.suppressNoise ? { suppressNoise: options.suppressNoise } : {}),
    });
    this.#screen = new JanusScreenShare({
      connection,
      attach,
      tell,
      answered: () => restarts.answered('screen'),
      stopRestarts: () => restarts.stop('screen'),
    });
  }

  /** Connected, with its publisher and subscriber handles attached, and not closed: ready for a room. */
  get prepared(): boolean {
    return this.#connection.connected && this.#publisher.handle !== null && this.#subscriber.handle !== null && !this.#connection.ended;
  }

  /** Connects and attaches both handles, before any room is known (a standby session: media/standby.ts). */
  async standBy(): Promise<void> {
    await this.connect();
    await this.attachPublisher();
    await this.#subscriber.attached();
  }

  /**
   * Hands a session made before its call (an agent's standby session: media/standby.ts) the call's media
   * grant. janus.js sends a handle's own token with each of its requests (join, configure, trickle,
   * detach) and the session's token only with create, keepalive, claim and destroy: from now on every
   * handle, and any attached later (the screen), speaks with the room's token, which the gate requires
   * for all that touches a room. The peer connections made from now on use `iceServers` (fresh TURN
   * credentials).
   */
  useGrant(token: string, iceServers: RTCIceServer[] | undefined): void {
    this.#connection.useGrant(token, iceServers);
  }

  get attempts(): number {
    return this.#connection.attempts;
  }

  /** Connects to the first answering endpoint, retried (janus/connection.ts). */
  connect(): Promise<void> {
    return this.#connection.connect();
  }

  /** A dropped session's next claim at once (janus/connection.ts claimNow). */
  claimNow(): void {
    this.#connection.claimNow();
  }

  /**
   * Attaches the publisher handle ("Media session" step 1), and the subscriber handle beside it: the first
   * subscription (at join, or when the other side's publisher is announced: the agent's answer, for a
   * waiting guest) then starts with its `join` and not with one more round trip to attach.
   */
  async attachPublisher(): Promise<void> {
    // a standby session handed to its call has both already
    if (this.#publisher.handle) return;
    this.#subscriber.prepare();
    await this.#publisher.attach();
  }

  /**
   * The call's room, as the server granted it (docs/protocol.md "Media room"): the server creates each
   * room (its properties, a random pin and a secret only it holds), so this only records the
   * stage; no browser may create, edit, record or destroy a room.
   */
  useRoom(): void {
    this.emit('stage', { stage: 'createRoom', ok: true });
  }

  /** Joins the room as a publisher (the pin in lowercase), and subscribes to those who publish already. */
  async join(room: RoomOptions, display: string): Promise<Publisher[]> {
    if (!this.#publisher.handle) throw new Error('Invalid plugin');
    try {
      const joined = await this.#publisher.join(room, display);
      this.emit('stage', { stage: 'joinRoom', ok: true });
      this.#subscriber.subscribeTo(joined.publishers);
      return joined.publishers;
    } catch (error) {
      this.emit('stage', { stage: 'joinRoom', ok: false, error: String(error) });
      throw error;
    }
  }

  /** Publishes local media ("Media session" step 2). Resolves when Janus has configured the stream. */
  publish(options: PublishOptions): Promise<void> {
    return this.#publisher.publish(options);
  }

  #isOwn(publisher: Publisher): boolean {
    const id = String(publisher.id);
    const display = this.#publisher.display;
    return (
      id === this.#publisher.joined?.id ||
      id === this.#screen.id ||
      // our name's camera from our previous page (the website widget's page change, docs/widget.md),
      // still in the room until Janus lets its session go: not a peer
      publisher.display === display ||
      publisher.display === `${display}-screen`
    );
  }

  /** Shares the screen as a second publisher named `{display}-screen`. */
  async startScreenShare(track: MediaStreamTrack): Promise<void> {
    const room = this.#publisher.room;
    if (!room) throw new Error('not in a room');
    await this.#screen.start(track, room, this.#publisher.display);
  }

  stopScreenShare(): Promise<void> {
    return this.#screen.stop();
  }

  get sharingScreen(): boolean {
    return this.#screen.sharing;
  }

  /** What we publish (the camera's own tracks). */
  get localStream(): MediaStream | null {
    return this.#publisher.tracks.localStream;
  }

  /** Mutes or unmutes our published audio or video (janus/publishedTracks.ts). */
  setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    return this.#publisher.tracks.setMuted(kind, muted);
  }

  /** Swaps our published camera and/or microphone for the tracks of `stream` (janus/publishedTracks.ts). */
  replaceTracks(stream: MediaStream): Promise<void> {
    return this.#publisher.tracks.replaceTracks(stream);
  }

  /** Noise suppression of the sent microphone on or off (janus/publishedTracks.ts). */
  setNoiseSuppression(on: boolean): Promise<void> {
    return this.#publisher.tracks.setNoiseSuppression(on);
  }

  /** Changes camera and/or microphone during the call (janus/publishedTracks.ts); false: nothing changed. */
  changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean> {
    return this.#publisher.tracks.changeDevices(choice, options);
  }

  /** The others' video to us on or off (media/audioFirst.ts), their audio kept. */
  receiveVideo(on: boolean): Promise<void> {
    return this.#subscriber.receiveVideo(on);
  }

  /** Remote feeds currently received. */
  get remoteFeeds(): RemoteFeed[] {
    return this.#subscriber.remoteFeeds;
  }

  /** The peer connections, for statistics (own publisher, subscriber, screen). */
  peerConnections(): { publisher?: RTCPeerConnection; subscriber?: RTCPeerConnection; screen?: RTCPeerConnection } {
    return {
      publisher: this.#publisher.handle?.webrtcStuff?.pc ?? undefined,
      subscriber: this.#subscriber.handle?.webrtcStuff?.pc ?? undefined,
      screen: this.#screen.handle?.webrtcStuff?.pc ?? undefined,
    };
  }

  /**
   * Leaves the room and ends every handle and the session ("Media session": hang-up stops tracks, clears
   * timers and closes the peer connection; then detach; then the session is destroyed). Each module
   * cleans up its own part. `lost`: Janus lost the session (it restarted): no `leave` is sent (nothing
   * would answer it), only the destroy.
   */
  async close(options: CloseOptions = {}): Promise<void> {
    if (this.#connection.ended) return;
    this.#connection.end();
    this.#restarts.stopAll();
    await this.#screen.stop().catch(() => undefined);
    if (options.lost) this.#publisher.abandon();
    else await this.#publisher.leave();
    await this.#connection.destroy();
  }
}
