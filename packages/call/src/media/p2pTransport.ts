/**
 * The p2p media transport (callMethod p2p; docs/protocol.md "p2p"): the guest's and the
 * agent's media flow directly between their browsers over a Jingle session (xmpp/jingle.ts), behind the
 * same MediaTransport port as Janus (media/mediaSession.ts), so the engines and the call-room core do not
 * change with the method.
 *
 * - The guest is the initiator: it opens the session toward the agent who answered (`connectPeer`, the
 *   agent's full JID from its `answer` control); StanzaJS restarts ICE only as initiator, and the guest is
 *   the side that changes networks. A transfer's new agent gets a session of its own.
 * - The agent is the responder: it takes only the session of the call's guest (`expect`); any other
 *   peer's session-initiate is declined (xmpp/jingle.ts) — ejabberd lets only the call's agents exchange
 *   Jingle with a guest at all (mod_lobby_guest_filter).
 * - Screen share: the initiator's offer always carries one more video content, last, for the screen; a
 *   share puts the screen track on its sender (replaceTrack, no renegotiation: StanzaJS has no
 *   content-add) and tells the peer with a Jingle `unmute` of that content, the end with `mute`.
 * - Mute takes the track off its sender (nothing is sent), as with Janus; devices are swapped the same way,
 *   and a camera whose frames are never encoded is refused by the same guard (cameraGuard.ts).
 */
import { Emitter } from '../emitter.ts';
import type { JingleCall } from '../xmpp/jingle.ts';
import type { ChangeDevicesOptions, DeviceChoice, MediaEvents, P2POptions, PublishOptions, RoomOptions } from '../ports/media.ts';
import { DEFAULT_VIDEO_CONSTRAINTS } from './devices.ts';
import { retry } from './retry.ts';
import { keepSendableCamera } from './cameraGuard.ts';
import { SentMicrophone } from './sentMicrophone.ts';

export type { P2POptions };

interface Link {
  call: JingleCall;
  display: string;
  feed: MediaStream | null;
  screen: MediaStream | null;
}

/**
 * How many times the guest sends its session-initiate to the agent who answered before the call fails
 * (a gateway step is tried 20 times; a Jingle attempt can wait the whole accept timeout of
 * xmpp/jingle.ts, so fewer: the guest is not kept waiting minutes for a console that is gone).
 */
export const P2P_INITIATE_ATTEMPTS = 5;

const bare = (jid: string) => jid.split('/')[0]!.toLowerCase();

export class P2PTransport extends Emitter<MediaEvents> {
  readonly #options: P2POptions;
  readonly #links = new Map<string, Link>();
  /** initiator: peers that answered before our stream was there */
  readonly #pending = new Map<string, string>();
  /** initiator: peers whose session-initiate is being sent (or sent again) */
  readonly #initiating = new Set<string>();
  /** responder: a session that came before our stream was there */
  #waiting: JingleCall | null = null;
  #stopIncoming: (() => void) | null = null;
  #published: PublishOptions | null = null;
  #screenTrack: MediaStreamTrack | null = null;
  /** kinds muted by us: the track each sender gets back on unmute */
  readonly #muted = new Map<'audio' | 'video', MediaStreamTrack | null>();
  #closed = false;
  localStream: MediaStream | null = null;
  /** the microphone track sent: the microphone, or its noise-suppressed copy (sentMicrophone.ts) */
  readonly #microphone: SentMicrophone;
  /** noise suppression asked for: the copy is made once a session is up (its set-up never waits for it) */
  #suppressionWanted = false;

  constructor(options: P2POptions) {
    super();
    this.#options = options;
    this.#microphone = new SentMicrophone(options.suppressNoise, (microphone) => {
      void this.#sendTrack('audio', microphone).catch(() => undefined);
    });
  }

  // ---- the steps CallRoom.joinAndPublish runs: no media server to connect to or join ------------------
  /** The responder takes its guest's session from here on; it is accepted once we publish. */
  connect(): Promise<void> {
    const { expect } = this.#options;
    if (this.#options.role === 'responder' && expect && !this.#stopIncoming) {
      this.#stopIncoming = this.#options.jingle.onIncoming(
        (peer) => !this.#closed && bare(peer) === bare(expect) && this.#links.size === 0 && !this.#waiting,
        (call) => {
          this.#waiting = call;
          // the guest gave up on it (its accept timeout) before we published: its next one is taken
          call.on('ended', () => {
            if (this.#waiting === call) this.#waiting = null;
          });
          if (this.#published) void this.#accept(call);
        },
      );
    }
    return Promise.resolve();
  }
  async attachPublisher(): Promise<void> {}
  useRoom(): void {
    this.emit('stage', { stage: 'createRoom', ok: true });
  }
  join(_room: RoomOptions, _display: string): Promise<unknown> {
    this.emit('stage', { stage: 'joinRoom', ok: true });
    return Promise.resolve([]);
  }

  async publish(options: PublishOptions): Promise<void> {
    this.#published = options;
    this.localStream = options.stream;
    this.emit('stage', { stage: 'localStream', ok: true });
    if (this.#waiting) await this.#accept(this.#waiting);
    for (const [peer, display] of this.#pending) this.connectPeer(peer, display);
    this.#pending.clear();
    // the microphone is sent at once; its noise-suppressed copy takes its place once a session is up
    this.#suppressionWanted = !!options.noiseSuppression;
    if (this.#links.size) this.#suppressAsWanted();
  }

  /** A session is up: the noise-suppressed copy is made if asked for and not made yet. */
  #suppressAsWanted(): void {
    if (this.#suppressionWanted && !this.#microphone.on) void this.setNoiseSuppression(true).catch(() => undefined);
  }

  /** The guest's side: a session toward the agent who answered (each agent of a transfer gets its own). */
  connectPeer(peer: string, display: string): void {
    if (this.#closed || this.#options.role !== 'initiator' || this.#links.has(peer) || this.#initiating.has(peer)) return;
    if (!this.#published) {
      this.#pending.set(peer, display);
      return;
    }
    // a session-initiate that fails (declined, timed out, the console gone) is sent again a few times;
    // then the peer is unreachable: the guest's engine ends the call (docs/protocol.md "p2p")
    this.#initiating.add(peer);
    retry(() => this.#initiate(peer, display), {
      attempts: P2P_INITIATE_ATTEMPTS,
      delayMs: this.#options.retryDelayMs ?? 500,
      maxDelayMs: 2000,
      stopIf: () => this.#closed,
      onRetry: (error, attempt) => console.warn(`p2p: session-initiate to ${peer} failed (attempt ${attempt}): ${String(error)}`),
    })
      .then(
        () => undefined,
        (error: unknown) => {
          if (this.#closed) return;
          console.error(`p2p: ${peer} unreachable after ${P2P_INITIATE_ATTEMPTS} session-initiates: ${String(error)}`);
          this.emit('peerUnreachable', { peer, error: String(error) });
        },
      )
      .finally(() => this.#initiating.delete(peer));
  }

  /** One session-initiate: resolves once the peer accepted it; a failed one is dropped and rejects. */
  async #initiate(peer: string, display: string): Promise<void> {
    const call = this.#options.jingle.call(peer);
    console.info(`p2p: session-initiate to ${peer}`);
    const link = this.#link(call, display);
    this.#addLocalTracks(call.pc);
    // the screen's content, always last (see the file's comment); sent only while sharing
    call.pc.addTransceiver('video', { direction: 'sendrecv' });
    // the session-initiate is the p2p side's offer: its stage, as Janus's publisher offer ("Media session")
    try {
      await call.start();
    } catch (error) {
      this.emit('stage', { stage: 'createOffer', ok: false, error: String(error) });
      call.end();
      this.#gone(link);
      throw error;
    }
    this.emit('stage', { stage: 'createOffer', ok: true });
    this.#suppressAsWanted();
    await this.#screenShown(link);
  }

  async #accept(call: JingleCall): Promise<void> {
    this.#waiting = null;
    console.info(`p2p: accepting the session of ${call.peer}`);
    const link = this.#link(call, this.#options.expectDisplay ?? bare(call.peer));
    this.#addLocalTracks(call.pc);
    const screen = this.#screenTransceiver(call.pc);
    if (screen) screen.direction = 'sendrecv';
    // the offer was applied before the session reached us: its track events have fired already
    for (const transceiver of call.pc.getTransceivers()) this.#onTrack(link, transceiver.receiver.track, transceiver);
    await call.accept();
    this.emit('stage', { stage: 'createAnswer', ok: true });
    this.#suppressAsWanted();
    await this.#screenShown(link);
  }

  #addLocalTracks(pc: RTCPeerConnection): void {
    const published = this.#published;
    if (!published) return;
    const stream = published.stream;
    const wanted = (track: MediaStreamTrack) => (track.kind === 'audio' ? published.audio : published.video);
    for (const track of stream.getTracks().filter(wanted)) {
      const sent = track.kind === 'audio' ? (this.#microphone.current ?? track) : track;
      const sender = pc.addTrack(sent, stream);
      const kind = track.kind as 'audio' | 'video';
      if (this.#muted.has(kind)) void sender.replaceTrack(null);
    }
  }

  /** The screen's transceiver: the session's last one, a video content. */
  #screenTransceiver(pc: RTCPeerConnection): RTCRtpTransceiver | null {
    const all = pc.getTransceivers();
    const last = all[all.length - 1];
    return last && last.receiver.track.kind === 'video' && all.length > 1 ? last : null;
  }

  /** Our screen, if shared before this session was made, is put on it. */
  async #screenShown(link: Link): Promise<void> {
    const track = this.#screenTrack;
    const screen = this.#screenTransceiver(link.call.pc);
    if (!track || !screen?.mid) return;
    await screen.sender.replaceTrack(track);
    await link.call.unmute(screen.mid);
  }

  #link(call: JingleCall, display: string): Link {
    const link: Link = { call, display, feed: null, screen: null };
    this.#links.set(call.peer, link);
    this.emit('publisherJoined', { feedId: call.peer, display });
    call.pc.addEventListener('track', (event) => this.#onTrack(link, event.track, event.transceiver));
    call.pc.addEventListener('iceconnectionstatechange', () => {
      // diagnostics (the guest's console buffer goes with its reports)
      console.info(`p2p: ICE ${call.pc.iceConnectionState} with ${call.peer}`);
      if (call.pc.iceConnectionState === 'failed') this.emit('iceFailed', { handle: 'publisher' });
    });
    call.on('ended', () => this.#gone(link));
    call.on('unmute', (content) => this.#remoteScreen(link, content, true));
    call.on('mute', (content) => this.#remoteScreen(link, content, false));
    call.on('hold', () => this.emit('held', { peer: call.peer }));
    return link;
  }

  /** A remote track (the peer connection's track event): the camera and microphone make the peer's feed. */
  #onTrack(link: Link, track: MediaStreamTrack, transceiver: RTCRtpTransceiver): void {
    if (this.#closed || transceiver === this.#screenTransceiver(link.call.pc)) return;
    if (link.feed?.getTracks().includes(track)) return;
    const first = link.feed === null;
    const stream = link.feed ?? new MediaStream();
    stream.addTrack(track);
    link.feed = stream;
    if (first) {
      console.info(`p2p: first remote track from ${link.call.peer}`);
      this.emit('stage', { stage: 'remoteStream', ok: true });
    }
    this.emit('remoteFeed', { feedId: link.call.peer, display: link.display, stream });
  }

  /** The peer's screen content unmuted (it shares) or muted (it stopped): its `-screen` feed. */
  #remoteScreen(link: Link, content: string | undefined, shown: boolean): void {
    const screen = this.#screenTransceiver(link.call.pc);
    if (this.#closed || !screen || content !== screen.mid) return;
    const feedId = `${link.call.peer}-screen`;
    const display = `${link.display}-screen`;
    if (shown && !link.screen) {
      link.screen = new MediaStream([screen.receiver.track]);
      this.emit('remoteFeed', { feedId, display, stream: link.screen });
    } else if (!shown && link.screen) {
      link.screen = null;
      this.emit('remoteFeedRemoved', { feedId, display });
    }
  }

  /** The peer ended its session (hang-up, hold, a transfer's agent leaving, ICE failed for good). */
  #gone(link: Link): void {
    if (this.#links.get(link.call.peer) !== link) return;
    this.#links.delete(link.call.peer);
    if (link.screen) this.emit('remoteFeedRemoved', { feedId: `${link.call.peer}-screen`, display: `${link.display}-screen` });
    if (link.feed) this.emit('remoteFeedRemoved', { feedId: link.call.peer, display: link.display });
    this.emit('publisherLeft', { feedId: link.call.peer, display: link.display });
  }

  // ---- in the call ---------------------------------------------------------------------------------------
  async startScreenShare(track: MediaStreamTrack): Promise<void> {
    this.#screenTrack = track;
    track.addEventListener('ended', () => {
      if (this.#screenTrack === track) void this.stopScreenShare().then(() => this.emit('screenEnded', undefined));
    });
    for (const link of this.#links.values()) await this.#screenShown(link);
  }

  async stopScreenShare(): Promise<void> {
    const track = this.#screenTrack;
    this.#screenTrack = null;
    if (!track) return;
    track.stop();
    for (const { call } of this.#links.values()) {
      const screen = this.#screenTransceiver(call.pc);
      if (!screen?.mid) continue;
      await screen.sender.replaceTrack(null);
      if (!this.#closed) await call.mute(screen.mid);
    }
  }

  get sharingScreen(): boolean {
    return this.#screenTrack !== null;
  }

  /** Our camera's or microphone's sender on every session (not the screen's). */
  #senders(kind: 'audio' | 'video'): RTCRtpSender[] {
    return [...this.#links.values()].flatMap(({ call }) => {
      const screen = this.#screenTransceiver(call.pc);
      return call.pc
        .getTransceivers()
        .filter((t) => t !== screen && t.receiver.track.kind === kind)
        .map((t) => t.sender);
    });
  }

  /** Muting takes the track off its sender (nothing at all is sent); unmuting puts it back. */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const own = this.localStream?.getTracks().find((t) => t.kind === kind) ?? null;
    if (own) own.enabled = !muted;
    const track = kind === 'audio' ? (this.#microphone.current ?? own) : own;
    if (muted === this.#muted.has(kind)) return;
    if (muted) this.#muted.set(kind, track);
    else this.#muted.delete(kind);
    await Promise.all(this.#senders(kind).map((sender) => sender.replaceTrack(muted ? null : track)));
  }

  /**
   * Another microphone or camera (or the other facing camera): replaceTrack on each session. A camera
   * whose frames the encoder never sends is replaced by the previous one (cameraGuard.ts, as with Janus).
   */
  async changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean> {
    const facing = choice.backCam === undefined ? undefined : choice.backCam ? 'environment' : 'user';
    const constraints = options.videoConstraints ?? DEFAULT_VIDEO_CONSTRAINTS;
    const video =
      options.video && (choice.videoDeviceId !== undefined || facing !== undefined)
        ? {
            ...constraints,
            ...(choice.videoDeviceId ? { deviceId: { exact: choice.videoDeviceId } } : {}),
            ...(facing ? { facingMode: { ideal: facing } } : {}),
          }
        : false;
    const audio = choice.audioDeviceId !== undefined ? { deviceId: { exact: choice.audioDeviceId } } : false;
    if (!video && !audio) return false;
    const getUserMedia = this.#options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
    const previousCamera = this.localStream?.getVideoTracks()[0]?.getSettings().deviceId;
    await this.#send(await getUserMedia({ audio, video }));
    if (!video || this.#muted.has('video')) return true;
    await keepSendableCamera({
      senders: () => this.#senders('video'),
      previousCamera,
      restore: async (deviceId) => this.#send(await getUserMedia({ audio: false, video: { ...constraints, deviceId: { exact: deviceId } } })),
      ...((options.probeMs ?? this.#options.probeMs) !== undefined ? { probeMs: options.probeMs ?? this.#options.probeMs } : {}),
      stopped: () => this.#closed,
    });
    return true;
  }

  /** New tracks on every session's senders (kept off while their kind is muted), the old ones stopped. */
  async #send(fresh: MediaStream): Promise<void> {
    const kept = (this.localStream?.getTracks() ?? []).filter((old) => {
      const next = fresh.getTracks().find((t) => t.kind === old.kind);
      if (next) old.stop();
      return !next;
    });
    for (const track of fresh.getTracks()) {
      const kind = track.kind as 'audio' | 'video';
      if (this.#muted.has(kind)) track.enabled = false;
      await this.#sendTrack(kind, kind === 'audio' ? await this.#microphone.sendable(track) : track);
    }
    this.localStream = new MediaStream([...fresh.getTracks(), ...kept]);
  }

  /** `track` on every session's sender of its kind, or kept for the unmute while that kind is muted. */
  async #sendTrack(kind: 'audio' | 'video', track: MediaStreamTrack): Promise<void> {
    if (this.#muted.has(kind)) this.#muted.set(kind, track);
    else await Promise.all(this.#senders(kind).map((sender) => sender.replaceTrack(track)));
  }

  /** Noise suppression of the sent microphone on or off: every session's audio sender gets the new track. */
  async setNoiseSuppression(on: boolean): Promise<void> {
    this.#suppressionWanted = on;
    const microphone = this.localStream?.getAudioTracks()[0];
    // not published yet: publish is told (PublishOptions.noiseSuppression)
    if (!microphone || on === this.#microphone.on) return;
    await this.#sendTrack('audio', await this.#microphone.sendable(microphone, on));
  }

  /** Ends every session (a hold tells the peer with session-info <hold/> first) and stops our tracks. */
  async close(options: { destroyRoom?: boolean; hold?: boolean } = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopIncoming?.();
    this.#waiting?.end('decline');
    this.#screenTrack?.stop();
    this.#screenTrack = null;
    const links = [...this.#links.values()];
    this.#links.clear(); // our own ending is not the peer leaving
    for (const { call } of links) {
      if (options.hold) await call.hold().catch(() => undefined);
      call.end();
    }
    for (const track of this.localStream?.getTracks() ?? []) track.stop();
    this.#microphone.stop();
  }

  peerConnections(): { publisher?: RTCPeerConnection; subscriber?: RTCPeerConnection } {
    const pc = [...this.#links.values()][0]?.call.pc;
    return pc ? { publisher: pc, subscriber: pc } : {};
  }
}
