/**
 * The call-room core: what a participant does inside a call, the same for the guest and the agent —
 * open the media transport, join and publish, follow the others' feeds (and their shared screens), mute,
 * change devices, share the screen (and notice when the browser ends it), chat and files (`chat`,
 * room/roomChat.ts), the hold teardown and the end. GuestCall and AgentDesk compose one CallRoom and keep
 * only what differs (the guest's registration, report and queue presence; the agent's queue, routing and
 * transfer).
 *
 * The core owns no snapshot: it reads and writes the fields both engines' snapshots share (`RoomView`),
 * so each engine keeps its own snapshot shape and emits one change per write.
 */
import type { DeviceChoice, MediaTransport, MediaTransportOptions, PublishOptions, RemoteFeed, RoomOptions, WatermarkOptions } from '../ports/media.ts';
import type { RoomPresence } from '../xmpp/session.ts';
import { isScreenDisplay, mutedChanged, remoteScreensChanged, screenShareChanged, type CallStatus } from '../state/callStatus.ts';
import { watchMediaHealth, type MediaNotice } from '../media/mediaHealth.ts';
import { watchMedia } from '../media/mediaWatch.ts';
import { AudioFirst } from '../media/audioFirst.ts';
import type { LineStep } from '../media/lineSteps.ts';
import type { NetworkQuality } from '../media/networkQuality.ts';
import type { CallPorts } from '../ports/callPorts.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { whenVisible } from '../ports/environment.ts';
import { defaultPorts } from '../composition.ts';
import { RoomChat } from './roomChat.ts';

/** The in-call fields of both engines' snapshots. */
export interface RoomView {
  status: CallStatus;
  localStream: MediaStream | null;
  localScreen: MediaStream | null;
  remoteFeeds: RemoteFeed[];
  muted: { audio: boolean; video: boolean };
}

export interface CallRoomOptions {
  /** the engine's ports; the real ones where not given */
  ports?: Partial<CallPorts> | undefined;
  read(): RoomView;
  write(patch: Partial<RoomView>): void;
  /** the engine's signalling session (null before it is connected) */
  signalling(): SignallingPort | null;
  /** the XMPP room of the current call (chat goes there) */
  room(): string | null;
  videoConstraints?: MediaTrackConstraints | undefined;
  /** our line's step changed (status.lineStep): the engine tells the room through its presence */
  lineStepChanged?: () => void;
  /** sound first on a weak line (media/audioFirst.ts); off by default (docs/protocol.md "Line steps") */
  lineSteps?: boolean | undefined;
  /** the sent microphone noise-suppressed from the start (docs/architecture.md "Noise suppression"); off by default */
  noiseSuppression?: boolean | undefined;
}

export interface FeedHooks {
  /** a participant's (not a screen's) feed: the engine records it itself; without it, the feed is listed */
  peerFeed?: (feed: RemoteFeed) => void;
  /** after any feed was added */
  feedAdded?: (feed: RemoteFeed) => void;
  /**
   * The media server's health (media/mediaHealth.ts): the notice to show while Janus is waited
   * for or reconnected to, and what the engine does once the call's session is lost.
   */
  health?: {
    notice: (notice: MediaNotice) => void;
    onLost: (error: string, media: MediaTransport) => void;
    /**
     * Janus answered without the call's session (it restarted): the engine takes a new grant and rejoins
     * (`rejoin`) instead of ending the call (docs/protocol.md "Media session lost")
     */
    onRejoin?: (error: string, media: MediaTransport) => void;
    /** this transport replaces a lost one: the notice stays until the others' media reaches it */
    rejoining?: boolean;
    /**
     * Janus stayed unreachable through a few claims (media/mediaHealth.ts MOVE_AFTER_CLAIMS): the engine asks
     * once for a new grant and moves the call to a new session (`rejoin`); resolves whether it moved
     */
    onUnreachable?: (error: string, media: MediaTransport) => Promise<boolean>;
    /** a peer connection stayed down through every ICE restart (media/iceRestart.ts) */
    onIceFailed?: (handle: 'publisher' | 'subscriber' | 'screen', media: MediaTransport) => void;
    /** the network-quality indicator's measure, every second or so while the call lasts */
    quality?: (quality: NetworkQuality) => void;
  };
}

export interface PublishPlan {
  room: RoomOptions;
  /** our display name in the media room */
  display: string;
  /** our camera and microphone; may still be opening (it is awaited after the join) */
  stream: Promise<MediaStream>;
  video: boolean;
  watermark?: WatermarkOptions | null;
  /** after the transport connected (e.g. the guest's connection.janus flag) */
  connected?: () => void;
  /** the guest publishes only once its page is visible (docs/protocol.md "Media session") */
  waitVisible?: boolean;
}

/** What `takeAll()` took from a call that ends: `dispose()` releases it. */
export interface TakenCall {
  media: MediaTransport | null;
  localStream: MediaStream | null;
  localScreen: MediaStream | null;
}

export class CallRoom {
  readonly #options: CallRoomOptions;
  readonly ports: CallPorts;
  #media: MediaTransport | null = null;
  /** the connect step of a transport whose health is followed (its final failure reads MEDIA_SERVER_DOWN) */
  readonly #connects = new WeakMap<MediaTransport, () => Promise<void>>();
  /** the current transport's line steps (media/audioFirst.ts) */
  #audioFirst: AudioFirst | null = null;
  /** the hold's media teardown, which a resume waits for */
  holding: Promise<void> = Promise.resolve();
  /** the call's chat and files, and what the room has not echoed yet (room/roomChat.ts) */
  readonly chat: RoomChat;
  #noiseSuppression: boolean;

  constructor(options: CallRoomOptions) {
    this.#options = options;
    this.ports = defaultPorts(options.ports);
    this.#noiseSuppression = options.noiseSuppression ?? false;
    this.chat = new RoomChat({
      clock: this.ports.clock,
      signalling: () => options.signalling(),
      room: () => options.room(),
      setStatus: (update) => this.#setStatus(update),
    });
  }

  /** The current call's media transport (null between calls and on hold). */
  get media(): MediaTransport | null {
    return this.#media;
  }

  /** False once the call this transport belonged to was held or ended: its events no longer count. */
  isCurrent(media: MediaTransport): boolean {
    return this.#media === media;
  }

  /** Opens the call's media transport and follows the others' feeds and our screen's end. */
  open(options: MediaTransportOptions, hooks: FeedHooks = {}): MediaTransport {
    const media = this.ports.media(options);
    this.#media = media;
    media.on('remoteFeed', (feed) => {
      if (!this.isCurrent(media)) return;
      if (hooks.peerFeed && !isScreenDisplay(feed.display)) hooks.peerFeed(feed);
      else this.addFeed(feed);
      hooks.feedAdded?.(feed);
    });
    media.on('remoteFeedRemoved', ({ feedId }) => {
      if (!this.isCurrent(media)) return;
      this.#setFeeds(this.#options.read().remoteFeeds.filter((f) => f.feedId !== feedId));
    });
    media.on('screenEnded', () => {
      // the browser's sharing track ended ("Stop sharing"): the screen publisher is gone already
      if (this.isCurrent(media)) this.#screenShared(null);
    });
    const health = hooks.health;
    if (health) {
      const { onUnreachable } = health;
      const current = () => this.isCurrent(media);
      const { connect, peerStalled } = watchMediaHealth(media, {
        current,
        notice: health.notice,
        onLost: (error) => health.onLost(error, media),
        ...(health.onRejoin ? { onRejoin: (error: string) => health.onRejoin?.(error, media) } : {}),
        ...(onUnreachable ? { onUnreachable: (error: string) => onUnreachable(error, media) } : {}),
        ...(health.rejoining ? { rejoining: true } : {}),
        onIceFailed: (handle) => health.onIceFailed?.(handle, media),
      });
      this.#connects.set(media, connect);
      const audioFirst = (this.#audioFirst = this.#options.lineSteps
        ? new AudioFirst({
            publisher: () => media.peerConnections().publisher,
            ...(media.receiveVideo ? { receiveVideo: (on: boolean) => media.receiveVideo!(on) } : {}),
            changed: (step) => current() && this.#lineStep(step),
          })
        : null);
      watchMedia({
        media,
        clock: this.ports.clock,
        current,
        expectsAudio: () => this.#othersHaveOpenMicrophones(),
        expectsMedia: () => this.#othersHaveOpenMicrophones() || this.#othersHaveOpenCameras(),
        quality: (quality) => health.quality?.(quality),
        stalled: peerStalled,
        // only a call that sends video has a step to take (a voice call's audio is all it sends)
        line: (reading) => {
          if (this.#options.read().localStream?.getVideoTracks().length) audioFirst?.read(reading);
        },
      });
    }
    return media;
  }

  /** Our line's step (docs/protocol.md "Line steps"): shown, and told to the others through our presence. */
  #lineStep(step: LineStep): void {
    if (this.#options.read().status.lineStep === step) return;
    this.#setStatus((s) => ({ ...s, lineStep: step }));
    this.#options.lineStepChanged?.();
  }

  /** Someone else in the call has its microphone open (its muted state comes from its room presence). */
  #othersHaveOpenMicrophones(): boolean {
    const { remoteFeeds, status } = this.#options.read();
    const others = remoteFeeds.filter((f) => !isScreenDisplay(f.display) && f.stream.getAudioTracks().length > 0);
    return others.length > status.mutedAudioJIDs.length;
  }

  /** Someone else in the call has its camera on (muted cameras send no packets: replaceTrack(null)). */
  #othersHaveOpenCameras(): boolean {
    const { remoteFeeds, status } = this.#options.read();
    const others = remoteFeeds.filter((f) => !isScreenDisplay(f.display) && f.stream.getVideoTracks().length > 0);
    return others.length > status.mutedVideoJIDs.length;
  }

  /** The remote feeds with `feed` added (replacing an earlier one of the same id). */
  feedsWith(feed: RemoteFeed): RemoteFeed[] {
    return [...this.#options.read().remoteFeeds.filter((f) => f.feedId !== feed.feedId), feed];
  }

  /** Lists a remote feed; a shared screen among them is shown large. */
  addFeed(feed: RemoteFeed): void {
    this.#setFeeds(this.feedsWith(feed));
  }

  #setFeeds(remoteFeeds: RemoteFeed[]): void {
    const screens = remoteFeeds.filter((f) => isScreenDisplay(f.display)).length;
    this.#options.write({ remoteFeeds, status: remoteScreensChanged(this.#options.read().status, screens) });
  }

  /**
   * Connects, joins the media room and publishes (docs/protocol.md "Media session"). The camera may still
   * be opening meanwhile (the subscription to the others begins at join). Resolves false when the call was
   * held or ended meanwhile (a camera opened for it is stopped).
   */
  async joinAndPublish(media: MediaTransport, plan: PublishPlan): Promise<boolean> {
    const ended = () => !this.isCurrent(media);
    const giveBack = async () => {
      const stream = await plan.stream.catch(() => null);
      if (stream && this.#options.read().localStream !== stream) for (const track of stream.getTracks()) track.stop();
      return false;
    };
    await (this.#connects.get(media) ?? (() => media.connect()))();
    if (ended()) return giveBack();
    plan.connected?.();
    await media.attachPublisher();
    if (ended()) return giveBack();
    media.useRoom();
    await media.join(plan.room, plan.display);
    if (plan.waitVisible) await whenVisible(this.ports.environment);
    const stream = await plan.stream;
    if (ended()) return giveBack();
    if (this.#options.read().localStream !== stream) this.#options.write({ localStream: stream });
    const publish: PublishOptions = {
      stream,
      audio: true,
      video: plan.video,
      ...(plan.watermark !== undefined ? { watermark: plan.watermark } : {}),
      noiseSuppression: this.#noiseSuppression,
    };
    await media.publish(publish);
    return !ended();
  }

  /**
   * The call goes on over `media`, a new session opened (`open`) after `lost`'s was lost (Janus restarted:
   * docs/protocol.md "Media session lost"): the lost session is let go, the others' dead feeds and our
   * screen share end, and we join and publish again with the camera we have (cloned), muted as we were. Resolves false when the call was held or ended meanwhile.
   */
  async rejoin(lost: MediaTransport, media: MediaTransport, plan: Omit<PublishPlan, 'stream'>): Promise<boolean> {
    const { localScreen, localStream } = this.#options.read();
    // janus.js stops the tracks a handle published when it cleans the handle up: the new session
    // publishes clones of our camera and microphone, taken before the lost one is let go
    const camera = localStream?.clone() ?? null;
    void lost.close({ lost: true }).catch(() => undefined);
    for (const track of localScreen?.getTracks() ?? []) track.stop();
    const status = screenShareChanged(remoteScreensChanged(this.#options.read().status, 0), false);
    this.#options.write({ remoteFeeds: [], localScreen: null, status });
    const stream = camera ? Promise.resolve(camera) : this.ports.devices.getUserMedia({ video: plan.video });
    if (!(await this.joinAndPublish(media, { ...plan, stream }))) return false;
    const { muted } = this.#options.read();
    for (const kind of ['audio', 'video'] as const) if (muted[kind]) await media.setMuted(kind, true).catch(() => undefined);
    return this.isCurrent(media);
  }

  /** whether the sent microphone is noise-suppressed (the switch; it may have fallen back to the raw one) */
  get noiseSuppression(): boolean {
    return this.#noiseSuppression;
  }

  /**
   * Noise suppression of the sent microphone on or off (docs/architecture.md "Noise suppression"): at once
   * in a call, and for every call after.
   */
  async setNoiseSuppression(on: boolean): Promise<void> {
    this.#noiseSuppression = on;
    await this.#media?.setNoiseSuppression(on).catch((error: unknown) => console.warn(`noise suppression: ${String(error)}`));
  }

  /** Mutes our microphone or camera (the engine tells the room through its presence). */
  setMuted(kind: 'audio' | 'video', muted: boolean): void {
    void this.#media?.setMuted(kind, muted).catch(() => undefined);
    // the camera turned on by hand overrides the line's pause until the line steps again
    if (kind === 'video' && !muted) this.#audioFirst?.manual();
    this.#options.write({ muted: { ...this.#options.read().muted, [kind]: muted } });
  }

  /** Another occupant's mute state, from its room presence (docs/protocol.md "Mute state"). */
  presenceMuted(presence: RoomPresence): void {
    const jid = presence.jid ? presence.jid.split('/')[0]! : presence.nick;
    const audio = presence.available && !!presence.lobby?.audioMuted;
    const video = presence.available && !!presence.lobby?.videoMuted;
    const step = presence.available ? presence.lobby?.lineStep : undefined;
    this.#setStatus((s) => {
      const weakLineJIDs = s.weakLineJIDs.filter((w) => w.jid !== jid);
      if (step === 'reduced' || step === 'audioOnly') weakLineJIDs.push({ jid, step });
      return { ...mutedChanged(mutedChanged(s, jid, 'audio', audio), jid, 'video', video), weakLineJIDs };
    });
  }

  /**
   * Changes camera and/or microphone during the call without dropping it (docs/protocol.md "Call status"
   * deviceConfigChanged), or flips between the front and the back camera (isBackCam).
   */
  async changeDevices(choice: DeviceChoice, video: boolean): Promise<void> {
    const media = this.#media;
    if (!media) throw new Error('not in a call');
    const { videoConstraints } = this.#options;
    let changed: boolean;
    try {
      changed = await media.changeDevices(choice, { video, ...(videoConstraints ? { videoConstraints } : {}) });
    } catch (error) {
      // a refused camera: the previous one is published again, with new tracks
      this.#options.write({ localStream: media.localStream });
      throw error;
    }
    if (!changed) return;
    this.#options.write({
      localStream: media.localStream,
      status: {
        ...this.#options.read().status,
        deviceConfigChanged: true,
        ...(choice.backCam !== undefined ? { isBackCam: choice.backCam } : {}),
      },
    });
  }

  /** The device settings panel (deviceConfigOpen). */
  setDeviceConfigOpen(open: boolean): void {
    this.#setStatus((s) => ({ ...s, deviceConfigOpen: open }));
  }

  /** Volume of the others' audio, 0–1 (callVolume, default 1). */
  setCallVolume(volume: number): void {
    const v = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
    this.#setStatus((s) => ({ ...s, callVolume: v }));
  }

  /** The participant shown large (mainUser). */
  setMainUser(jid: string): void {
    this.#setStatus((s) => ({ ...s, mainUser: jid }));
  }

  /** A shared screen large or not. */
  setZoomed(zoomed: boolean): void {
    this.#setStatus((s) => ({ ...s, isZoomed: zoomed }));
  }

  /** Shares the screen as our `-screen` publisher (the server records it like the camera when it records the call). */
  async startScreenShare(): Promise<void> {
    const media = this.#media;
    if (!media || media.sharingScreen) return;
    const display = await this.ports.devices.getDisplayMedia();
    const track = display.getVideoTracks()[0];
    if (!track) throw new Error('no screen track');
    this.#screenShared(display);
    try {
      await media.startScreenShare(track);
    } catch (error) {
      for (const t of display.getTracks()) t.stop();
      await media.stopScreenShare().catch(() => undefined);
      this.#screenShared(null);
      throw error;
    }
  }

  async stopScreenShare(): Promise<void> {
    await this.#media?.stopScreenShare();
    this.#screenShared(null);
  }

  #screenShared(display: MediaStream | null): void {
    this.#options.write({ localScreen: display, status: screenShareChanged(this.#options.read().status, !!display) });
  }

  /**
   * Holding ("Hold and resume"): the shared screen stops, the others' feeds go, `status` records the hold,
   * `announce` tells the room; then the media leaves (the call continues under a new call id) and the
   * camera stops. The returned teardown is also `holding`, which a resume waits for.
   */
  hold(
    status: (s: CallStatus) => CallStatus,
    announce: () => void,
    close: { destroyRoom?: boolean; hold?: boolean } = {},
  ): Promise<void> {
    const media = this.#media;
    this.#media = null; // its events no longer concern the call
    const { localStream, localScreen } = this.#options.read();
    for (const track of localScreen?.getTracks() ?? []) track.stop();
    this.#options.write({
      status: screenShareChanged(status(this.#options.read().status), false),
      remoteFeeds: [],
      localScreen: null,
    });
    announce();
    this.holding = (async () => {
      await media?.close(close);
      for (const track of localStream?.getTracks() ?? []) track.stop();
      // a resume may have started meanwhile with a new stream: leave that one alone
      if (this.#options.read().localStream === localStream) {
        this.#options.write({
          localStream: null,
          status: { ...this.#options.read().status, streamsReady: { local: false, remote: false } },
        });
      }
    })();
    return this.holding;
  }

  /**
   * The call ends: takes its media, camera and screen now (the engine clears its snapshot in the same
   * breath), so that a next call started while `dispose()` runs is never touched by this call's teardown.
   */
  takeAll(): TakenCall {
    this.chat.clear();
    const media = this.#media;
    this.#media = null;
    const { localStream, localScreen } = this.#options.read();
    return { media, localStream, localScreen };
  }

  /** Stops what `takeAll()` took and leaves the media room (closing takes up to the gateway's timeout). */
  async dispose(taken: TakenCall, close: { destroyRoom?: boolean } = {}): Promise<void> {
    for (const track of taken.localStream?.getTracks() ?? []) track.stop();
    for (const track of taken.localScreen?.getTracks() ?? []) track.stop();
    await taken.media?.close(close);
  }

  /** Statistics of the media connections (tests and diagnostics). */
  peerConnections(): ReturnType<MediaTransport['peerConnections']> {
    return this.#media?.peerConnections() ?? {};
  }

  #setStatus(update: (status: CallStatus) => CallStatus): void {
    this.#options.write({ status: update(this.#options.read().status) });
  }
}
