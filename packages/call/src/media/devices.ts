/**
 * Local media ("Constants" of docs/protocol.md): default camera ideal 1440×1080 (max width 1440); a failed
 * camera request is reported as 'disabledCamera'.
 */
import type { LocalMediaRequest } from '../ports/devices.ts';

export const DEFAULT_VIDEO_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 1440, max: 1440 },
  height: { ideal: 1080 },
};

/** Janus's video presets (docs/protocol.md "Constants"). */
export const VIDEO_PRESETS = {
  lowres: { width: 320, height: 240 },
  'lowres-16:9': { width: 320, height: 180 },
  stdres: { width: 640, height: 480 },
  'stdres-16:9': { width: 640, height: 360 },
  hires: { width: 1280, height: 720 },
  hdres: { width: 1280, height: 720 },
  fhdres: { width: 1920, height: 1080 },
  '4kres': { width: 3840, height: 2160 },
} as const;

/** A voice call's microphone request failed (refused, missing or busy): the guest is told so. */
export class DisabledMicrophoneError extends Error {
  constructor(cause: unknown) {
    super('disabledMicrophone', { cause });
    this.name = 'DisabledMicrophoneError';
  }
}

export class DisabledCameraError extends Error {
  constructor(cause: unknown) {
    super('disabledCamera', { cause });
    this.name = 'DisabledCameraError';
  }
}

export async function getLocalMedia(options: LocalMediaRequest): Promise<MediaStream> {
  const audio: MediaTrackConstraints | boolean = options.audioDeviceId
    ? { ...options.audioConstraints, deviceId: { exact: options.audioDeviceId } }
    : options.audioConstraints && Object.keys(options.audioConstraints).length
      ? { ...options.audioConstraints }
      : true;
  const video: MediaTrackConstraints | false = options.video
    ? {
        ...(options.videoConstraints ?? DEFAULT_VIDEO_CONSTRAINTS),
        ...(options.videoDeviceId ? { deviceId: { exact: options.videoDeviceId } } : {}),
      }
    : false;
  try {
    return await navigator.mediaDevices.getUserMedia({ audio, video });
  } catch (error) {
    if (options.video) throw new DisabledCameraError(error);
    // a voice call: the microphone was refused or is missing (not a network failure)
    throw new DisabledMicrophoneError(error);
  }
}
