import { useEffect, useRef, useState, type ReactNode } from 'react';
import styles from './VideoTile.module.css';

export interface VideoTileProps {
  stream: MediaStream | null;
  /** Mute the element (always for the local self-view, to avoid echo). */
  muted?: boolean;
  /** Mirror horizontally (front camera self-view). */
  mirrored?: boolean;
  /** Name shown on the tile and used as its accessible name. */
  label?: string;
  /** Id of the peer the stream belongs to; exposed as data-peer. */
  peer?: string;
  /** Show the placeholder even when there is video (camera turned off). */
  videoOff?: boolean;
  /** Play the stream through an <audio> element and show only the placeholder (voice calls). */
  audioOnly?: boolean;
  /** Shown when there is no video to show. */
  placeholder?: ReactNode;
  /** Playback volume 0–1 of the element (the agent's per-participant volume); 1 when not given. */
  volume?: number;
  /** Audio output device (HTMLMediaElement.setSinkId); the system default when not given or ''. */
  sinkId?: string;
  /** 'cover' fills the tile (default), 'contain' shows the whole picture. */
  fit?: 'cover' | 'contain';
  className?: string;
  'data-testid'?: string;
}

function hasLiveVideo(stream: MediaStream | null): boolean {
  return !!stream?.getVideoTracks().some((track) => track.readyState === 'live');
}

/**
 * A media tile. Sets `srcObject` in an effect (React cannot set it as a prop) and exposes
 * `data-has-stream` / `data-has-video` / `data-peer` for tests.
 */
export function VideoTile({
  stream,
  muted = false,
  mirrored = false,
  label,
  peer,
  videoOff = false,
  audioOnly = false,
  placeholder,
  fit = 'cover',
  volume = 1,
  sinkId,
  className,
  'data-testid': testId,
}: VideoTileProps) {
  const mediaRef = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [, setTrackTick] = useState(0);

  useEffect(() => {
    const element = mediaRef.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (stream && typeof element.play === 'function') {
      // Autoplay can be refused before a user gesture; the element keeps its srcObject and plays later.
      element.play()?.catch(() => undefined);
    }
  }, [stream, audioOnly]);

  useEffect(() => {
    const element = mediaRef.current;
    if (element) element.volume = Math.min(1, Math.max(0, volume));
  }, [volume, audioOnly]);

  useEffect(() => {
    const element = mediaRef.current;
    if (!element || sinkId === undefined || typeof element.setSinkId !== 'function') return;
    // a speaker unplugged meanwhile: the element keeps playing where it was
    if (element.sinkId !== sinkId) element.setSinkId(sinkId).catch(() => undefined);
  }, [sinkId, audioOnly]);

  // Re-render when tracks come and go, so the placeholder follows the video.
  useEffect(() => {
    if (!stream) return;
    const bump = () => setTrackTick((n) => n + 1);
    stream.addEventListener('addtrack', bump);
    stream.addEventListener('removetrack', bump);
    return () => {
      stream.removeEventListener('addtrack', bump);
      stream.removeEventListener('removetrack', bump);
    };
  }, [stream]);

  const showVideo = !audioOnly && !videoOff && hasLiveVideo(stream);
  const classes = [styles.tile, className].filter(Boolean).join(' ');

  return (
    <figure
      className={classes}
      data-testid={testId}
      data-has-stream={stream ? 'true' : 'false'}
      data-has-video={showVideo ? 'true' : 'false'}
      data-peer={peer ?? ''}
      aria-label={label}
    >
      {audioOnly ? (
        <audio ref={mediaRef} autoPlay muted={muted} />
      ) : (
        <video
          ref={mediaRef}
          className={`${styles.video} ${mirrored ? styles.mirrored : ''} ${fit === 'contain' ? styles.contain : ''}`}
          autoPlay
          playsInline
          muted={muted}
          hidden={!showVideo}
        />
      )}
      {!showVideo ? <div className={styles.placeholder}>{placeholder}</div> : null}
      {label ? (
        <figcaption className={styles.label} aria-hidden="true">
          {label}
        </figcaption>
      ) : null}
    </figure>
  );
}
