/**
 * "Sound first, always" applied (docs/protocol.md "Line steps"): the step lineSteps.ts decides is set on
 * our camera's sender with setParameters (as startSmall.ts sets the start size) — `reduced`: about
 * 320×240 at 15 frames a second; `audioOnly`: the video encoding inactive, so nothing of it is sent —
 * and, on a transport that can, the others' video stops coming to us from `audioOnly` until our line is
 * back at `full` (`receiveVideo`). The audio sender's encoding gets the high priority (the browser's DSCP marking and
 * its share of the estimate) once.
 *
 * A person can still turn the camera back on by hand (`manual`): the automatic pause is then overridden
 * until the rules decide another step.
 */
import { gradeOf, initialLine, nextLine, type LineReading, type LineState, type LineStep } from './lineSteps.ts';
import { startScale } from './startSmall.ts';

/** the picture at `reduced`: the start size's pixels (startSmall.ts), at most this many frames a second */
export const REDUCED_FRAMERATE = 15;
/**
 * `reduced` starts at this bitrate cap (its keyframe and first frames fit a 300 kbit/s line beside the
 * audio), grows by REDUCED_GROWTH a reading while the line stays better than weak, and shrinks by
 * REDUCED_BACKOFF on a weak one, up to REDUCED_MAX_BPS: so a step up never floods the line it left
 */
export const REDUCED_START_BPS = 100_000;
export const REDUCED_MAX_BPS = 600_000;
export const REDUCED_GROWTH = 1.25;
export const REDUCED_BACKOFF = 0.7;

export interface AudioFirstOptions {
  /** our camera's connection (Janus's publisher, or the p2p connection) */
  publisher: () => RTCPeerConnection | undefined;
  /** the others' video to us on or off (Janus: the subscriber's streams); absent: not possible */
  receiveVideo?: (on: boolean) => Promise<void>;
  /** the step shown changed */
  changed: (step: LineStep) => void;
}

type Sender = Pick<RTCRtpSender, 'getParameters' | 'setParameters' | 'track'>;

function senderOf(pc: RTCPeerConnection, kind: 'audio' | 'video'): Sender | undefined {
  // a muted camera's sender has no track (replaceTrack(null)): its transceiver's receiver says its kind
  return pc.getTransceivers().find((t) => t.receiver.track?.kind === kind && t.direction !== 'inactive')?.sender;
}

/** Sets `step` on a video sender's first encoding; `pixels`: the camera's width and height. */
export async function applyStep(
  sender: Sender,
  step: LineStep,
  size: { width?: number; height?: number } = {},
  capBps = REDUCED_START_BPS,
): Promise<void> {
  const parameters = sender.getParameters();
  const encoding = parameters.encodings?.[0];
  if (!encoding) return;
  encoding.active = step !== 'audioOnly';
  if (step === 'reduced') {
    const scale = size.width && size.height ? startScale(size.width, size.height) : 2;
    encoding.scaleResolutionDownBy = Math.max(scale, encoding.scaleResolutionDownBy ?? 1);
    encoding.maxFramerate = REDUCED_FRAMERATE;
    encoding.maxBitrate = Math.round(capBps);
  } else if (step === 'full') {
    encoding.scaleResolutionDownBy = 1;
    delete encoding.maxFramerate;
    delete encoding.maxBitrate;
  }
  await sender.setParameters(parameters);
}

/** The audio sender first: high priority on its encodings. */
export async function preferAudio(sender: Sender): Promise<void> {
  const parameters = sender.getParameters();
  if (!parameters.encodings?.length) return;
  for (const encoding of parameters.encodings) {
    encoding.priority = 'high';
    encoding.networkPriority = 'high';
  }
  await sender.setParameters(parameters);
}

export class AudioFirst {
  readonly #o: AudioFirstOptions;
  #line: LineState = initialLine();
  /** the step a manual camera toggle overrode (its video stays on until the rules step again) */
  #overridden: LineStep | null = null;
  #applied: LineStep = 'full';
  #audioPreferred: RTCPeerConnection | null = null;
  #receiving = true;
  /** the bitrate cap of `reduced` now */
  #capBps = REDUCED_START_BPS;

  constructor(options: AudioFirstOptions) {
    this.#o = options;
  }

  /** the step the rules decided */
  get step(): LineStep {
    return this.#line.step;
  }

  /** the step our camera is sent at (a manual override sends it whole) */
  get applied(): LineStep {
    return this.#applied;
  }

  /** One more reading of the line. */
  read(reading: LineReading): void {
    const before = this.#line.step;
    this.#line = nextLine(this.#line, reading);
    if (this.#line.step !== before) this.#overridden = null;
    if (this.#line.step === 'reduced' && before === 'reduced' && !this.#overridden) this.#grow(reading);
    else if (this.#line.step === 'reduced' && before !== 'reduced') this.#capBps = REDUCED_START_BPS;
    this.#apply();
  }

  /** `reduced`'s cap follows the line: up while it is better than weak, down on a weak reading. */
  #grow(reading: LineReading): void {
    const grade = gradeOf(reading, true);
    const next =
      grade === 'good' || grade === 'fair'
        ? Math.min(this.#capBps * REDUCED_GROWTH, REDUCED_MAX_BPS)
        : Math.max(this.#capBps * REDUCED_BACKOFF, REDUCED_START_BPS);
    if (next === this.#capBps) return;
    this.#capBps = next;
    const video = this.#applied === 'reduced' ? this.#videoSender() : undefined;
    if (video) void applyStep(video, 'reduced', video.track?.getSettings() ?? {}, next).catch(() => undefined);
  }

  #videoSender(): Sender | undefined {
    const pc = this.#o.publisher();
    return pc ? senderOf(pc, 'video') : undefined;
  }

  /** The person turned the camera on by hand: the automatic pause (or size) is off until the line steps again. */
  manual(): void {
    if (this.#line.step === 'full') return;
    this.#overridden = this.#line.step;
    this.#apply();
  }

  #apply(): void {
    const pc = this.#o.publisher();
    if (pc && this.#audioPreferred !== pc) {
      this.#audioPreferred = pc;
      const audio = senderOf(pc, 'audio');
      if (audio) void preferAudio(audio).catch((e: unknown) => console.warn(`media: the audio's priority: ${String(e)}`));
    }
    const step: LineStep = this.#overridden ? 'full' : this.#line.step;
    // off at audioOnly, on again only at full: a downlink that could not carry the others' video at
    // audioOnly is not tried again by the first step up (which would starve our audio once more)
    const receiving = step === 'full' ? true : step === 'audioOnly' ? false : this.#receiving;
    if (receiving !== this.#receiving && this.#o.receiveVideo) {
      this.#receiving = receiving;
      void this.#o.receiveVideo(receiving).catch((e: unknown) => console.warn(`media: the others' video ${receiving ? 'on' : 'off'}: ${String(e)}`));
    }
    if (step === this.#applied) return;
    this.#applied = step;
    console.info(`media: line step ${step}${this.#overridden ? ' (camera on by hand)' : ''}`);
    this.#o.changed(step);
    const video = pc ? senderOf(pc, 'video') : undefined;
    if (!video) return;
    const settings = video.track?.getSettings() ?? {};
    void applyStep(video, step, settings, this.#capBps).catch((e: unknown) => console.warn(`media: the line step ${step}: ${String(e)}`));
  }
}
