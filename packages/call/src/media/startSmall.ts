/**
 * A new publisher's first frames at a size its start rate can carry (docs/performance.md: keyframe wait),
 * then full size in steps its line and its machine carry (docs/performance.md: "The start size's way up").
 *
 * Chromium starts a sender's bandwidth estimate at 300 kbit/s. Below that, libwebrtc's encoder drops the
 * first frames (up to four) of a picture larger than 320×240, and below 500 kbit/s of one larger than
 * 640×480, each time asking the camera's adapter for a smaller picture (VideoStreamEncoder's initial frame
 * drop). Measured with bench/call-setup.ts --timeline: the agent's first keyframe was encoded 130–350 ms
 * after its publisher's connection was up, "1 encoded of 5 captured", and the guest, who subscribes to that
 * publisher, waited for it. So a publisher starts scaled down to about 320×240.
 *
 * The way back up is not a fixed moment: a camera's full size (1440×1080) has twenty times the pixels of
 * the start size. Going there 2 s after the connection was up, whatever the send estimate and the
 * machine, is the likely cause of a picture seen to stop on a loaded machine (ten frames of 320×240
 * decoded, then none for seconds): a large keyframe at a rate that cannot carry it, or an encoder the CPU
 * already holds back. So the picture doubles its sides one step at a time, each step only when the
 * connection's send estimate carries its pixels (libwebrtc's own thresholds) and the encoder is not
 * limited by the CPU. Where the browser gives no such reading, a step is taken as before.
 */
import { countersOf } from './networkQuality.ts';

export const START_PIXELS = 320 * 240;
/** how long after the connection is up the first step up is considered */
export const FULL_SIZE_AFTER_MS = 2000;
/** how often a step up is considered again, after one taken or one the line could not carry */
export const STEP_EVERY_MS = 1000;

/**
 * The send estimate (bit/s) a picture of `pixels` needs before a step to it: the rates below which
 * libwebrtc's encoder drops the first frames of a larger picture (above). Above 500 kbit/s the encoder's
 * own adaptation takes any size; a higher bar would hold a still picture small for good, since a sender
 * that sends little is not probed for more (its estimate grows with what it sends).
 */
export function rateFor(pixels: number): number {
  if (pixels <= 320 * 240) return 0;
  if (pixels <= 640 * 480) return 300_000;
  return 500_000;
}

type Sender = Pick<RTCRtpSender, 'getParameters' | 'setParameters' | 'track'>;
export type StartSmallPeer = Pick<
  RTCPeerConnection,
  'getSenders' | 'addEventListener' | 'removeEventListener' | 'connectionState' | 'getStats'
>;

/** The scale that brings `width`×`height` to START_PIXELS or less (1: it is small enough). */
export function startScale(width: number, height: number): number {
  const pixels = width * height;
  return pixels > START_PIXELS ? Math.sqrt(pixels / START_PIXELS) : 1;
}

/** The next scale on the way up from `scale`: sides doubled, never past full size. */
export function nextScale(scale: number): number {
  return scale / 2 < 1.25 ? 1 : scale / 2;
}

/** What a step up looks at: the connection's send estimate and what limits the video encoder. */
export interface SendReading {
  /** bit/s; undefined when the browser gives none */
  estimate?: number;
  /** 'cpu', 'bandwidth', 'none', 'other'; undefined when the browser gives none */
  limitedBy?: string;
}

/** The selected pair's send estimate (networkQuality.ts countersOf reads it) and what limits the video encoder. */
async function readSend(pc: Pick<RTCPeerConnection, 'getStats'>): Promise<SendReading> {
  const entries = [...(await pc.getStats()).values()] as Record<string, unknown>[];
  const reading: SendReading = {};
  const estimate = countersOf([entries]).outgoingBitrate;
  if (typeof estimate === 'number') reading.estimate = estimate;
  const video = entries.find((s) => s.type === 'outbound-rtp' && s.kind === 'video');
  if (typeof video?.qualityLimitationReason === 'string') reading.limitedBy = video.qualityLimitationReason;
  return reading;
}

/** Whether the reading carries a picture of `pixels`: an estimate at its rate and an encoder the CPU does not hold back. */
export function carries(reading: SendReading, pixels: number): boolean {
  if (reading.limitedBy === 'cpu') return false;
  return reading.estimate === undefined || reading.estimate >= rateFor(pixels);
}

async function scaleTo(sender: Sender, scale: number, onlyFrom?: number): Promise<boolean> {
  const parameters = sender.getParameters();
  const encoding = parameters.encodings?.[0];
  if (!encoding) return false;
  // a scale someone else set meanwhile (the line's steps) is theirs to keep
  if (onlyFrom !== undefined && encoding.scaleResolutionDownBy !== onlyFrom) return false;
  encoding.scaleResolutionDownBy = scale;
  await sender.setParameters(parameters);
  return true;
}

/**
 * Scales the video sender of `pc` (a publisher whose offer was just made) down for its start, and back
 * up to full size in steps from FULL_SIZE_AFTER_MS after its connection is up. Failures are only logged:
 * the picture is then sent as it comes, as before.
 */
export function startSmall(pc: StartSmallPeer, setTimer: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms)): void {
  const sender = pc.getSenders().find((s) => s.track?.kind === 'video');
  const settings = sender?.track?.getSettings();
  if (!sender || !settings?.width || !settings.height) return;
  const fullPixels = settings.width * settings.height;
  let scale = startScale(settings.width, settings.height);
  if (scale === 1) return;
  const fail = (error: unknown) => console.warn(`media: the publisher's start size: ${String(error)}`);
  const gone = () => pc.connectionState === 'closed' || pc.connectionState === 'failed';
  scaleTo(sender, scale).catch(fail);

  const stepUp = async (): Promise<void> => {
    if (gone()) return;
    const to = nextScale(scale);
    const reading = await readSend(pc).catch((): SendReading => ({}));
    if (carries(reading, fullPixels / (to * to))) {
      // someone else's scale: the way up is theirs from here
      if (!(await scaleTo(sender, to, scale))) return;
      scale = to;
    }
    if (scale > 1) setTimer(() => void stepUp().catch(fail), STEP_EVERY_MS);
  };
  const onState = () => {
    if (gone()) {
      pc.removeEventListener('connectionstatechange', onState);
      return;
    }
    if (pc.connectionState !== 'connected') return;
    pc.removeEventListener('connectionstatechange', onState);
    setTimer(() => void stepUp().catch(fail), FULL_SIZE_AFTER_MS);
  };
  pc.addEventListener('connectionstatechange', onState);
}
