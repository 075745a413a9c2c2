import { Children, type ReactNode } from 'react';
import VideoOff from 'lucide-react/icons/video-off';
import { VideoTile } from './VideoTile.tsx';
import stage from './CallStage.module.css';

/**
 * A remote participant's media: the fields the tiles read of the engine's feed. It is a structural subset
 * of @lobby/call's RemoteFeed, which call-react and the apps pass here as it is (so the compiler keeps the
 * two in step); this package does not import the engine (docs/architecture.md "Layers").
 */
export interface StageStream {
  feedId: string;
  stream: MediaStream;
}

/** A shared screen: the whole picture (contain), named for tests `remote-screen`. */
export function ScreenTile({
  screen,
  label,
  className,
}: {
  screen: StageStream;
  label: string;
  className?: string;
}) {
  return (
    <VideoTile
      className={className}
      stream={screen.stream}
      peer={screen.feedId}
      fit="contain"
      label={label}
      data-testid="remote-screen"
    />
  );
}

export interface StageOthersProps {
  /** the shared screen, shown here small unless it is zoomed (then the app shows it large) */
  screen: StageStream | null;
  zoomed: boolean;
  onZoom: () => void;
  screenLabel: string;
  /** the small screen's button: "show the shared screen large" */
  zoomLabel: string;
  /** where the column stands on the stage (the app's offsets) */
  className?: string;
  /** the other participants' tiles */
  children?: ReactNode;
}

/** The column of the other participants, with the shared screen first while it is small. */
export function StageOthers({
  screen,
  zoomed,
  onZoom,
  screenLabel,
  zoomLabel,
  className,
  children,
}: StageOthersProps) {
  const small = screen && !zoomed ? screen : null;
  if (!small && Children.count(children) === 0) return null;
  return (
    <div className={`${stage.others} ${className ?? ''}`}>
      {small ? (
        <button type="button" className={stage.otherTile} onClick={onZoom} aria-label={zoomLabel}>
          <ScreenTile screen={small} label={screenLabel} />
        </button>
      ) : null}
      {children}
    </div>
  );
}

export interface SelfViewProps {
  stream: MediaStream | null;
  /** our camera is off: the tile shows the camera-off icon */
  videoOff: boolean;
  /** the tile's name ("You") */
  label: string;
  /** the camera-off icon's accessible name */
  cameraOffLabel: string;
  iconSize?: number;
  className?: string;
}

/** Our own camera, small and mirrored, never played aloud (no echo); named for tests `local-video`. */
export function SelfView({
  stream,
  videoOff,
  label,
  cameraOffLabel,
  iconSize = 20,
  className,
}: SelfViewProps) {
  return (
    <VideoTile
      className={className}
      stream={stream}
      muted
      mirrored
      videoOff={videoOff}
      label={label}
      peer="local"
      data-testid="local-video"
      placeholder={<VideoOff size={iconSize} aria-label={cameraOffLabel} />}
    />
  );
}
