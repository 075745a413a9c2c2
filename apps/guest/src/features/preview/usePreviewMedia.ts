// The preview's own camera and microphone: opened on the preview screen, released when it closes
// (the call opens its own with the chosen devices). A failed request is 'disabledCamera'.
import { useEffect, useRef, useState } from 'react';

export interface PreviewDevices {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
}

export function usePreviewMedia(
  video: boolean,
  videoDeviceId: string | null,
  audioDeviceId: string | null,
  facing: 'user' | 'environment' | null,
  onFailure: () => void,
) {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [devices, setDevices] = useState<PreviewDevices>({ cameras: [], microphones: [] });
  const failure = useRef(onFailure);
  failure.current = onFailure;

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    const videoConstraint: MediaTrackConstraints | false = !video
      ? false
      : videoDeviceId
        ? { deviceId: { exact: videoDeviceId } }
        : facing
          ? { facingMode: facing }
          : {};
    Promise.resolve()
      .then(() => navigator.mediaDevices.getUserMedia({ audio: audioDeviceId ? { deviceId: { exact: audioDeviceId } } : true, video: videoConstraint }))
      .then(async (media) => {
        if (cancelled) {
          media.getTracks().forEach((t) => t.stop());
          return;
        }
        opened = media;
        setStream(media);
        const list = await navigator.mediaDevices.enumerateDevices();
        if (!cancelled)
          setDevices({
            cameras: list.filter((d) => d.kind === 'videoinput'),
            microphones: list.filter((d) => d.kind === 'audioinput'),
          });
      })
      .catch(() => {
        if (!cancelled) failure.current();
      });
    return () => {
      cancelled = true;
      opened?.getTracks().forEach((t) => t.stop());
    };
  }, [video, videoDeviceId, audioDeviceId, facing]);

  return { stream, devices };
}

/** Microphone level 0…1 from an AnalyserNode, sampled every animation frame. */
export function useMicLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!stream || !stream.getAudioTracks().length || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    let last = 0;
    const tick = (time: number) => {
      frame = requestAnimationFrame(tick);
      if (time - last < 80) return;
      last = time;
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += ((s - 128) / 128) ** 2;
      setLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      source.disconnect();
      void context.close().catch(() => undefined);
    };
  }, [stream]);
  return level;
}
