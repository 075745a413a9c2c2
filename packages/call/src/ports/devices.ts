/** The camera and microphone, and the screen (docs/architecture.md "Ports"). */

/** What the engines ask of the camera and microphone (media/devices.ts getLocalMedia). */
export interface LocalMediaRequest {
  video: boolean;
  videoConstraints?: MediaTrackConstraints;
  /** e.g. the microphone the guest chose on the preview screen (`deviceId`) */
  audioConstraints?: MediaTrackConstraints;
  audioDeviceId?: string;
  videoDeviceId?: string;
}

export interface DevicesPort {
  getUserMedia(request: LocalMediaRequest): Promise<MediaStream>;
  getDisplayMedia(): Promise<MediaStream>;
}
