/**
 * The camera guard both media transports share (janus/publishedTracks.ts for Janus, p2pTransport.ts for p2p).
 *
 * A camera can deliver frames the encoder cannot take: a depth camera's 16-bit grey (Y16) frames render
 * locally but no frame is ever encoded, so the other side's video silently froze (Chromium's second fake
 * camera, fake_device_1, is such a device). After a camera switch the transport therefore watches the
 * encoder of its camera senders; when nothing comes out, the previous camera is put back and
 * UnsendableCameraError is thrown (the device panels say the camera could not be used).
 */

/** The chosen camera's frames cannot be sent (e.g. a depth camera); the previous camera is back. */
export class UnsendableCameraError extends Error {
  constructor() {
    super('unsendableCamera');
    this.name = 'UnsendableCameraError';
  }
}

export interface CameraGuard {
  /** the senders of our camera (not a screen's): their encoder is watched */
  senders: () => RTCRtpSender[];
  /** the camera sent before the switch (its deviceId), put back when the new one cannot be sent */
  previousCamera: string | undefined;
  /** puts that camera back on the senders */
  restore: (deviceId: string) => Promise<void>;
  /** how long the encoder may take to put out the new camera's first frames (4 s by default) */
  probeMs?: number;
  /** the transport closed meanwhile: nothing left to watch */
  stopped: () => boolean;
}

/** Resolves once the new camera's frames are encoded; otherwise restores the previous camera and throws. */
export async function keepSendableCamera(guard: CameraGuard): Promise<void> {
  if (await encodesVideo(guard)) return;
  if (guard.previousCamera) await guard.restore(guard.previousCamera);
  throw new UnsendableCameraError();
}

/** True once the senders' video encoder has put out new frames within `probeMs`. */
async function encodesVideo(guard: CameraGuard): Promise<boolean> {
  const ms = guard.probeMs ?? 4000;
  const senders = guard.senders().filter((s) => s.track?.kind === 'video');
  if (!senders.length) return true; // nothing sent to watch
  const encoded = async () => {
    let frames = 0;
    for (const sender of senders) {
      (await sender.getStats()).forEach((s: { type?: string; kind?: string; framesEncoded?: number }) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video') frames += s.framesEncoded ?? 0;
      });
    }
    return frames;
  };
  const start = await encoded();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(250, ms / 4)));
    if (guard.stopped()) return true;
    // two frames: one can slip out of the encoder when the track is swapped
    if ((await encoded()) - start >= 2) return true;
  }
  return false;
}
