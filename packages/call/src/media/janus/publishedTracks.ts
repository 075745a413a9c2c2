/**
 * The tracks our camera publisher sends (docs/protocol.md "Media session"): mute, the device change, and
 * the company's watermark drawn into the sent camera video (media/watermark.ts), the noise-suppressed
 * microphone (media/sentMicrophone.ts). Mute, device changes and the noise-suppression switch never
 * renegotiate: a sender's track is swapped (replaceTrack). `stop` stops every local track, the
 * watermark's drawing and the suppressed microphone's audio context.
 */
import type { ChangeDevicesOptions, DeviceChoice, WatermarkOptions } from '../../ports/media.ts';
import { keepSendableCamera } from '../cameraGuard.ts';
import { DEFAULT_VIDEO_CONSTRAINTS } from '../devices.ts';
import type { SuppressNoise } from '../noise/suppression.ts';
import { SentMicrophone } from '../sentMicrophone.ts';
import { canWatermark, watermarkTrack, type Watermarked } from '../watermark.ts';
import type { Handle } from './library.ts';

export interface PublishedTracksOptions {
  /** the camera publisher's handle (null before it is attached) */
  handle: () => Handle | null;
  /** the session is closing: a camera check stops */
  ended: () => boolean;
  /** the browser's getUserMedia (a device change); navigator's by default */
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** the noise suppressor (media/noise/suppression.ts); RNNoise's by default */
  suppressNoise?: SuppressNoise;
}

export class PublishedTracks {
  readonly #o: PublishedTracksOptions;
  /** what we publish (the camera's and microphone's own tracks, not the watermarked or suppressed copies) */
  localStream: MediaStream | null = null;
  #watermark: WatermarkOptions | null = null;
  /** the marked copy of the camera that is sent, while a watermark is on */
  #marked: Watermarked | null = null;
  /** senders whose track we took away to mute, by kind */
  readonly #mutedSenders = new Map<'audio' | 'video', { sender: RTCRtpSender; track: MediaStreamTrack }>();
  /** the microphone track sent: the microphone, or its noise-suppressed copy */
  readonly #microphone: SentMicrophone;

  constructor(options: PublishedTracksOptions) {
    this.#o = options;
    this.#microphone = new SentMicrophone(options.suppressNoise, (microphone) => {
      void this.#send('audio', microphone).catch(() => undefined);
    });
  }

  #pc(): RTCPeerConnection | null {
    return this.#o.handle()?.webrtcStuff?.pc ?? null;
  }

  /** The stream being published and the watermark to draw into its camera (publish). */
  use(stream: MediaStream, watermark: WatermarkOptions | null): void {
    this.localStream = stream;
    this.#watermark = watermark;
  }

  /**
   * The video track to send for a camera track: the camera itself, or its watermarked copy when the
   * company's streamWatermark is on (the previous copy is stopped: one camera is sent at a time).
   */
  sendable(camera: MediaStreamTrack): MediaStreamTrack {
    if (!this.#watermark || !canWatermark()) return camera;
    this.#marked?.stop();
    this.#marked = watermarkTrack(camera, this.#watermark);
    return this.#marked.track;
  }

  /** The audio track to send for a microphone track, suppression `on` or (by default) as it was. */
  sendableAudio(microphone: MediaStreamTrack, on?: boolean): Promise<MediaStreamTrack> {
    return this.#microphone.sendable(microphone, on);
  }

  /**
   * Turns noise suppression on or off during the call: the audio sender gets the suppressed copy or the
   * raw microphone (a muted one gets it back on unmute).
   */
  async setNoiseSuppression(on: boolean): Promise<void> {
    const microphone = this.localStream?.getAudioTracks()[0];
    // not published yet: publish is told (PublishOptions.noiseSuppression)
    if (!microphone || on === this.#microphone.on) return;
    await this.#send('audio', await this.#microphone.sendable(microphone, on));
  }

  /** Puts `sent` on the sender of its kind, or keeps it for the unmute while that kind is muted. */
  async #send(kind: 'audio' | 'video', sent: MediaStreamTrack): Promise<void> {
    const pc = this.#pc();
    const muted = this.#mutedSenders.get(kind);
    const publisher = this.#o.handle();
    if (muted) {
      muted.track = sent;
    } else if (pc && publisher) {
      const sender = pc.getSenders().find((s) => s.track?.kind === kind);
      const mid = pc.getTransceivers().find((t) => t.sender === sender)?.mid ?? undefined;
      // janus.js's own replaceTracks keeps its bookkeeping of the local stream right. It stops the track
      // it replaces unless told not to (dontStop): audio's is the microphone, or its suppressed copy,
      // which this class and SentMicrophone stop themselves — the noise-suppression switch keeps the
      // microphone to make its next copy from.
      await new Promise<void>((resolve, reject) =>
        publisher.replaceTracks({
          tracks: [{ type: kind, capture: sent, recv: false, ...(mid ? { mid } : {}), ...(kind === 'audio' ? { dontStop: true } : {}) }],
          success: () => resolve(),
          error: (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
        }),
      );
    }
  }

  /**
   * Mutes or unmutes our own published audio or video. A muted track is disabled and taken off its
   * sender (replaceTrack(null)), so nothing at all is sent (a disabled track alone still sends silence
   * or black frames); unmuting puts it back. No renegotiation either way.
   */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const pc = this.#pc();
    for (const track of this.localStream?.getTracks() ?? []) if (track.kind === kind) track.enabled = !muted;
    if (!pc) return;
    if (muted) {
      if (this.#mutedSenders.has(kind)) return;
      const sender = pc.getSenders().find((s) => s.track?.kind === kind);
      if (!sender?.track) return;
      this.#mutedSenders.set(kind, { sender, track: sender.track });
      await sender.replaceTrack(null);
    } else {
      const entry = this.#mutedSenders.get(kind);
      if (!entry) return;
      this.#mutedSenders.delete(kind);
      entry.track.enabled = true;
      await entry.sender.replaceTrack(entry.track);
    }
  }

  /**
   * Swaps our published camera and/or microphone for the tracks of `stream` (a device change) without
   * renegotiating: each sender gets the new track (replaceTracks); a muted kind stays muted. The old
   * tracks of the swapped kinds are stopped.
   */
  async replaceTracks(stream: MediaStream): Promise<void> {
    const previous = this.localStream;
    for (const kind of ['audio', 'video'] as const) {
      const next = kind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
      if (!next) continue;
      if (this.#mutedSenders.has(kind)) next.enabled = false;
      await this.#send(kind, kind === 'video' ? this.sendable(next) : await this.sendableAudio(next));
      for (const old of previous?.getTracks() ?? []) if (old.kind === kind && old !== next) old.stop();
    }
    const kept = (previous?.getTracks() ?? []).filter(
      (t) => t.readyState === 'live' && !stream.getTracks().some((n) => n.kind === t.kind),
    );
    this.localStream = new MediaStream([...stream.getTracks(), ...kept]);
  }

  /**
   * Changes camera and/or microphone during the call, or flips between the front and the back camera
   * (deviceConfigChanged, isBackCam): the one implementation the guest and the agent share.
   * The new tracks replace the published ones on the same connection (replaceTracks).
   *
   * After a camera switch the encoder is watched (cameraGuard.ts, shared with the p2p transport): a camera
   * whose frames cannot be sent is replaced by the previous one and UnsendableCameraError is thrown.
   * Resolves false when there was nothing to change.
   */
  async changeDevices(choice: DeviceChoice, options: ChangeDevicesOptions): Promise<boolean> {
    const facing = choice.backCam === undefined ? undefined : choice.backCam ? 'environment' : 'user';
    const wantsVideo = options.video && (choice.videoDeviceId !== undefined || facing !== undefined);
    const wantsAudio = choice.audioDeviceId !== undefined;
    if (!wantsVideo && !wantsAudio) return false;
    const getUserMedia = this.#o.getUserMedia ?? ((c: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(c));
    const constraints = options.videoConstraints ?? DEFAULT_VIDEO_CONSTRAINTS;
    const previousCamera = this.localStream?.getVideoTracks()[0]?.getSettings().deviceId;
    const stream = await getUserMedia({
      audio: wantsAudio ? { deviceId: { exact: choice.audioDeviceId } } : false,
      video: wantsVideo
        ? {
            ...constraints,
            ...(choice.videoDeviceId ? { deviceId: { exact: choice.videoDeviceId } } : {}),
            ...(facing ? { facingMode: { ideal: facing } } : {}),
          }
        : false,
    });
    await this.replaceTracks(stream);
    if (!wantsVideo || this.#mutedSenders.has('video')) return true;
    await keepSendableCamera({
      senders: () => this.#pc()?.getSenders() ?? [],
      previousCamera,
      restore: async (deviceId) =>
        this.replaceTracks(await getUserMedia({ audio: false, video: { ...constraints, deviceId: { exact: deviceId } } })),
      ...(options.probeMs !== undefined ? { probeMs: options.probeMs } : {}),
      stopped: this.#o.ended,
    });
    return true;
  }

  /** Stops every local track, the watermark's drawing and the suppressed microphone (the session's close). */
  stop(): void {
    for (const track of this.localStream?.getTracks() ?? []) track.stop();
    this.#microphone.stop();
    this.#marked?.stop();
    this.#marked = null;
  }
}
