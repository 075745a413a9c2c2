/**
 * A new publisher's first frames at a size its start rate can carry (docs/performance.md: keyframe wait).
 *
 * Chromium starts a sender's bandwidth estimate at 300 kbit/s. Below that, libwebrtc's encoder drops the
 * first frames (up to four) of a picture larger than 320×240, and below 500 kbit/s of one larger than
 * 640×480, each time asking the camera's adapter for a smaller picture (VideoStreamEncoder's initial frame
 * drop). Measured with bench/call-setup.ts --timeline: the agent's first keyframe was encoded 130–350 ms
 * after its publisher's connection was up, "1 encoded of 5 captured", and the guest, who subscribes to that
 * publisher, waited for it. So a publisher starts scaled down to about 320×240, and goes back to full size
 * once its estimate has had time to grow: the encoder's own adaptation decides from there.
 */
export const START_PIXELS = 320 * 240;
/** how long after the connection is up the picture goes back to full size */
export const FULL_SIZE_AFTER_MS = 2000;

type Sender = Pick<RTCRtpSender, 'getParameters' | 'setParameters' | 'track'>;
export type StartSmallPeer = Pick<RTCPeerConnection, 'getSenders' | 'addEventListener' | 'removeEventListener' | 'connectionState'>;

/** The scale that brings `width`×`height` to START_PIXELS or less (1: it is small enough). */
export function startScale(width: number, height: number): number {
  const pixels = width * height;
  return pixels > START_PIXELS ? Math.sqrt(pixels / START_PIXELS) : 1;
}

async function scaleTo(sender: Sender, scale: number, onlyFrom?: number): Promise<void> {
  const parameters = sender.getParameters();
  const encoding = parameters.encodings?.[0];
  if (!encoding) return;
  // a scale someone else set meanwhile (none today) is theirs to keep
  if (onlyFrom !== undefined && encoding.scaleResolutionDownBy !== onlyFrom) return;
  encoding.scaleResolutionDownBy = scale;
  await sender.setParameters(parameters);
}

/**
 * Scales the video sender of `pc` (a publisher whose offer was just made) down for its start, and back
 * to full size FULL_SIZE_AFTER_MS after its connection is up. Failures are only logged: the picture is
 * then sent as it comes, as before.
 */
export function startSmall(pc: StartSmallPeer, setTimer: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms)): void {
  const sender = pc.getSenders().find((s) => s.track?.kind === 'video');
  const settings = sender?.track?.getSettings();
  if (!sender || !settings?.width || !settings.height) return;
  const scale = startScale(settings.width, settings.height);
  if (scale === 1) return;
  const fail = (error: unknown) => console.warn(`media: the publisher's start size: ${String(error)}`);
  scaleTo(sender, scale).catch(fail);
  const onState = () => {
    if (pc.connectionState === 'closed' || pc.connectionState === 'failed') {
      pc.removeEventListener('connectionstatechange', onState);
      return;
    }
    if (pc.connectionState !== 'connected') return;
    pc.removeEventListener('connectionstatechange', onState);
    setTimer(() => void scaleTo(sender, 1, scale).catch(fail), FULL_SIZE_AFTER_MS);
  };
  pc.addEventListener('connectionstatechange', onState);
}
