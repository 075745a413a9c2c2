import { useTranslation } from 'react-i18next';
import { StageOthers, VideoTile, stageStyles as stage } from '@lobby/ui';
import type { GuestCall, RemoteFeed } from '@lobby/call';
import type { StageLayout } from './stageLayout.ts';

/**
 * The column beside the large picture (docs/architecture.md "In-call UI"): the shared screen small (a
 * press shows it large) and the other participants' cameras; in a voice call their sound only.
 */
export function OthersColumn({ className, layout, engine, video, nameOf, volumeOf, sinkId }: {
  className?: string;
  /** the stage's layout (stageLayout): the others and the shared screen */
  layout: StageLayout<RemoteFeed>;
  /** the engine in the call: a press on the small screen shows it large for everyone (isZoomed) */
  engine: Pick<GuestCall, 'setZoomed'> | null;
  video: boolean;
  /** the name a person reads for a participant */
  nameOf: (feed: RemoteFeed) => string;
  /** the participant's playback volume, 0–1 */
  volumeOf: (feed: RemoteFeed) => number;
  /** the chosen speaker ('' for the default) */
  sinkId: string;
}) {
  const { t } = useTranslation(['ui']);
  return (
    <StageOthers
      className={className}
      screen={layout.screen}
      zoomed={!!layout.zoomedScreen}
      onZoom={() => engine?.setZoomed(true)}
      screenLabel={t('ui:call.sharedScreen')}
      zoomLabel={t('ui:call.showScreenLarge')}
    >
      {layout.others.map((o) =>
        video ? (
          <VideoTile key={o.feedId} className={stage.otherTile} stream={o.stream} peer={o.feedId} label={nameOf(o)} volume={volumeOf(o)} sinkId={sinkId} data-testid="remote-video-other" />
        ) : (
          <VideoTile key={o.feedId} className="visually-hidden" audioOnly stream={o.stream} peer={o.feedId} volume={volumeOf(o)} sinkId={sinkId} data-testid="remote-video-other" />
        ),
      )}
    </StageOthers>
  );
}
