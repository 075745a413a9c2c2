import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
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
 * A stream holding only `stream`'s tracks of one kind, made again when those tracks change. Remote media plays as Jitsi Meet plays it:
 * the picture in a muted, video-only <video>, the sound in its own <audio>. A <video> that also carries
 * the sound makes Chromium hold the first picture for the audio clock (bench/call-setup.ts measured the
 * first frame shown up to a second after it was decoded).
 */
function useKindOf(stream: MediaStream | null, kind: 'audio' | 'video'): MediaStream | null {
  const tracks = stream ? (kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks()) : [];
  // A new stream whenever the kind's tracks change (the engine adds a feed's later tracks to the same
  // stream by script, which fires no event, and hands the stream on again, which renders the tile): an
  // element whose srcObject gains a track while it plays can take seconds to show it.
  const ids = tracks.map((track) => track.id).join(',');
  return useMemo(
    () => (stream && typeof MediaStream !== 'undefined' ? new MediaStream(tracks) : null),
    [stream, ids],
  );
}

/** Plays `stream` in the element (srcObject cannot be a React prop); a refused autoplay plays later. */
function usePlayback(ref: RefObject<HTMLMediaElement | null>, stream: MediaStream | null, rerun: unknown): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (stream && typeof element.play === 'function') {
      // Autoplay can be refused before a user gesture; the element keeps its srcObject and plays later.
      element.play()?.catch(() => undefined);
    }
  }, [ref, stream, rerun]);
}

/**
 * A media tile. Sets `srcObject` in effects (React cannot set it as a prop) and exposes
 * `data-has-stream` / `data-has-video` / `data-peer` for tests. The picture plays in a muted <video>,
 * the sound (unless `muted`) in an <audio> beside it, which volume and sinkId apply to.
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
  const videoRef = useRef<HTMLVideoElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const [, setTrackTick] = useState(0);
  const videoOnly = useKindOf(audioOnly ? null : stream, 'video');
  const audioOnlyStream = useKindOf(muted ? null : stream, 'audio');

  usePlayback(videoRef, videoOnly, audioOnly);
  usePlayback(audioRef, audioOnlyStream, audioOnly);

  useEffect(() => {
    const element = audioRef.current;
    if (element) element.volume = Math.min(1, Math.max(0, volume));
  }, [volume, audioOnlyStream]);

  useEffect(() => {
    const element = audioRef.current;
    if (!element || sinkId === undefined || typeof element.setSinkId !== 'function') return;
    // a speaker unplugged meanwhile: the element keeps playing where it was
    if (element.sinkId !== sinkId) element.setSinkId(sinkId).catch(() => undefined);
  }, [sinkId, audioOnlyStream]);

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
      {audioOnly ? null : (
        <video
          ref={videoRef}
          className={`${styles.video} ${mirrored ? styles.mirrored : ''} ${fit === 'contain' ? styles.contain : ''}`}
          autoPlay
          playsInline
          muted
          hidden={!showVideo}
        />
      )}
      {muted ? null : <audio ref={audioRef} autoPlay />}
      {!showVideo ? <div className={styles.placeholder}>{placeholder}</div> : null}
      {label ? (
        <figcaption className={styles.label} aria-hidden="true">
          {label}
        </figcaption>
      ) : null}
    </figure>
  );
}
