/**
 * "Sound first, always" applied (docs/protocol.md "Line steps"): the step lineSteps.ts decides is set on
 * our camera's sender with setParameters (as startSmall.ts sets the start size) — `reduced`: about
 * 320×240 at 15 frames a second; `audioOnly`: the video encoding inactive, so nothing of it is sent —
 * and, on a transport that can, the others' video stops coming to us from the first step down until our
 * line is back at `full` (`receiveVideo`). The audio sender's encoding gets the high priority (the browser's DSCP marking and
 * its share of the estimate) once.
 *
 * A person can still turn the camera back on by hand (`manual`): the automatic pause is then overridden
 * until the rules decide another step.
 */
import { LINE_LIMITS, gradeOf, initialLine, nextLine, queued, type LineReading, type LineState, type LineStep } from './lineSteps.ts';
import { startScale } from './startSmall.ts';

/** the picture at `reduced`: the start size's pixels (startSmall.ts), at most this many frames a second */
export const REDUCED_FRAMERATE = 15;
/**
 * `reduced`'s bitrate cap (`maxBitrate`). It starts low, so that the step up from `audioOnly` on a line
 * that still cannot carry video costs the audio nothing (its keyframe and first frames fit a 300 kbit/s
 * line's queue beside the audio); it grows by REDUCED_GROWTH a reading while the line is better than
 * weak and shrinks by REDUCED_BACKOFF on a weak one; and it never takes more than the estimate leaves:
 * REDUCED_SHARE of it less the audio's AUDIO_KBPS, so the line keeps room for the pacer's bursts and the
 * audio is not queued behind the picture. The share is high enough for the estimate to keep growing on a
 * line that recovers (Chromium lets it grow to 1.5 times what is sent), the room with it.
 */
export const REDUCED_START_BPS = 60_000;
export const REDUCED_MIN_BPS = 30_000;
export const REDUCED_MAX_BPS = 600_000;
export const REDUCED_GROWTH = 1.25;
export const REDUCED_BACKOFF = 0.7;
export const REDUCED_SHARE = 0.85;
/** Opus and its packets' headers at 50 a second, kbit/s */
export const AUDIO_KBPS = 50;

/**
 * The estimate hardly grows under the picture's own cap (Chromium grows it by a few kbit/s a second
 * near the capacity it last measured): every PROBE_MS of readings at `reduced` with no trouble at all
 * (good, apart from the estimate's lack of room for `full`), the cap opens to REDUCED_MAX_BPS for one
 * reading. The sender's allocation then rises above its estimate, so Chromium probes the line at it (a
 * few short bursts, which a slow line drops harmlessly): on a line that recovered the estimate jumps to
 * what it has, the room with it, and `full` follows after its wait.
 */
export const PROBE_MS = 5000;

/** Whether to open the cap for one reading (a probe) now; `lastAt`: the last probe's time (or the step's). */
export function probesNow(reading: LineReading, lastAt: number, baseRttMs: number | null = null): boolean {
  const grade = gradeOf(reading, { ignoreRate: true });
  const noRoom = reading.availableKbps !== null && reading.availableKbps < LINE_LIMITS.goodKbps;
  return grade === 'good' && noRoom && reading.at - lastAt >= PROBE_MS && !queued(reading, baseRttMs);
}

/** what the estimate leaves the picture beside the audio, bit/s */
const roomOf = (reading: LineReading): number =>
  reading.availableKbps === null ? Infinity : (reading.availableKbps * REDUCED_SHARE - AUDIO_KBPS) * 1000;
const capWithin = (bps: number, reading: LineReading): number =>
  Math.round(Math.max(REDUCED_MIN_BPS, Math.min(bps, roomOf(reading), REDUCED_MAX_BPS)));

/** `reduced`'s cap as the step is taken. */
export const startCap = (reading: LineReading): number => capWithin(REDUCED_START_BPS, reading);

/** `reduced`'s cap after one more reading at that step. */
export function nextCap(capBps: number, reading: LineReading): number {
  const grade = gradeOf(reading, { ignoreRate: true });
  return capWithin(grade === 'good' || grade === 'fair' ? capBps * REDUCED_GROWTH : capBps * REDUCED_BACKOFF, reading);
}

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
  /** when `reduced` last probed (or was taken), and whether the cap is open for a probe now */
  #probedAt = 0;
  #probing = false;
  /** the last reading, told with a step */
  #last: LineReading | null = null;

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
    this.#last = reading;
    this.#line = nextLine(this.#line, reading);
    if (this.#line.step !== before) this.#overridden = null;
    if (this.#line.step === 'reduced' && before === 'reduced' && !this.#overridden) this.#follow(reading);
    else if (this.#line.step === 'reduced' && before !== 'reduced') {
      this.#capBps = startCap(reading);
      this.#probedAt = reading.at;
      this.#probing = false;
    }
    this.#apply();
  }

  /** the bitrate cap `reduced` sends at now, bit/s */
  get capBps(): number {
    return this.#capBps;
  }

  /** `reduced`'s cap follows the line (nextCap). */
  #follow(reading: LineReading): void {
    const base = this.#line.baseRttMs ?? null;
    const next = nextCap(this.#capBps, reading);
    const probe = probesNow(reading, this.#probedAt, base);
    if (probe) this.#probedAt = reading.at;
    if (next === this.#capBps && probe === this.#probing) return;
    this.#capBps = next;
    this.#probing = probe;
    const video = this.#applied === 'reduced' ? this.#videoSender() : undefined;
    if (video) void applyStep(video, 'reduced', video.track?.getSettings() ?? {}, probe ? REDUCED_MAX_BPS : next).catch(() => undefined);
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
    // off from the first step down, on again only at full: a line that cannot carry our whole picture up
    // is not trusted with the others' down (a 300 kbit/s line's downlink filled with it starves our audio
    // until the step after), and the step up to reduced does not try it again
    const receiving = step === 'full';
    if (receiving !== this.#receiving && this.#o.receiveVideo) {
      this.#receiving = receiving;
      void this.#o.receiveVideo(receiving).catch((e: unknown) => console.warn(`media: the others' video ${receiving ? 'on' : 'off'}: ${String(e)}`));
    }
    if (step === this.#applied) return;
    this.#applied = step;
    const r = this.#last;
    const read = r ? ` (loss sent ${r.sentLossPercent ?? '-'} % received ${r.receivedLossPercent ?? '-'} %, round trip ${r.rttMs ?? '-'} ms, estimate ${r.availableKbps ?? '-'} kbit/s, sent ${r.sentKbps ?? '-'} kbit/s)` : '';
    console.info(`media: line step ${step}${this.#overridden ? ' (camera on by hand)' : read}`);
    this.#o.changed(step);
    const video = pc ? senderOf(pc, 'video') : undefined;
    if (!video) return;
    const settings = video.track?.getSettings() ?? {};
    void applyStep(video, step, settings, this.#capBps).catch((e: unknown) => console.warn(`media: the line step ${step}: ${String(e)}`));
  }
}
