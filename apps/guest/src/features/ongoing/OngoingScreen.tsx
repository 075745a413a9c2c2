import { useTranslation } from '../../i18n/index.ts';
import { LineNotice } from '../call/LineNotice.tsx';
import { MediaNotice } from '../call/MediaNotice.tsx';
import MicOff from 'lucide-react/icons/mic-off';
import Headset from 'lucide-react/icons/headset';
import Pause from 'lucide-react/icons/pause';
import { useGuestStore } from '../../state/store.ts';
import { CallControls } from './CallControls.tsx';
import { HoldPage } from '../hold/HoldPage.tsx';
import { DevicePanel } from '../devices/DevicePanel.tsx';
import { NONE } from '../../state/inCall.ts';
import { useInCall } from '../../state/store.ts';
import { useCallEngine } from '../../state/callActions.ts';
import styles from './OngoingScreen.module.css';
import { VideoTile, Avatar, Spinner, useElapsed, ScreenTile, SelfView, NetworkQuality, stageStyles as stage } from '@lobby/ui';
import { OthersColumn, callMedia, callStageStatus, stageLayout } from '@lobby/call-react';
import { useShallow } from 'zustand/react/shallow';
import { ChatPanel } from '../chat/ChatPanel.tsx';

/** The call itself: remote video large with a self-view, or the voice layout with the agent's avatar. */
export function OngoingScreen() {
  const { t } = useTranslation(['translation', 'ui']);
  const company = useGuestStore((s) => s.company);
  const callType = useGuestStore((s) => s.callType);
  const { localStream, remoteFeeds, videoMuted, audioMuted, networkQuality } = useGuestStore(useShallow(callMedia));
  const callStartedAt = useGuestStore((s) => s.callStartedAt);
  const elapsed = useElapsed(callStartedAt);
  const { mainUser, zoomed: isZoomed, chatOpen, devicesOpen: deviceConfigOpen, mutedAudio, mutedVideo } = useInCall(useShallow((s) => callStageStatus(s.status)));
  const localScreen = useInCall((s) => s.localScreen);
  const engine = useCallEngine();
  const peers = useInCall((s) => s.status?.peers ?? NONE);
  /** the name an agent announced (docs/protocol.md), never its address */
  const nameOf = (display: string) => peers.find((p) => p.peerJID === display)?.name ?? t('call.agent');
  const onHold = useInCall((s) => s.status?.peerCall === 'Paused');
  // the call's volume and the chosen speaker go to every remote tile (docs/protocol.md "Devices during the call")
  const volume = useInCall((s) => s.status?.callVolume ?? 1);
  const sinkId = useInCall((s) => s.sinkId);
  const watermark = company?.streamWatermark === 'visible';
  const watermarkLogo = company?.waterMarkLogo && /^https?:\/\//.test(company.waterMarkLogo) ? company.waterMarkLogo : null;
  const layout = stageLayout({ feeds: remoteFeeds, mainUser, zoomed: isZoomed });
  const { main: remote, others, screen, zoomedScreen } = layout;
  const agentName = remote ? nameOf(remote.display) : t('call.agent');
  // the agent's picture from its console account (peers profileImageUrl); else its initial
  const agentImage = remote ? peers.find((p) => p.peerJID === remote.display)?.profileImageUrl : undefined;
  const remoteAudioMuted = !!remote && mutedAudio.includes(remote.display);
  const remoteVideoMuted = !!remote && mutedVideo.includes(remote.display);
  const video = callType !== 'voice';

  const status = (
    <div className={styles.status}>
      {company?.recordCalls !== false ? (
        <span className={styles.rec}>
          <span className={styles.recDot} aria-hidden="true" />
          {t('app.recording')}
        </span>
      ) : null}
      <NetworkQuality quality={networkQuality} />
      <span className={styles.timer} data-testid="call-timer" data-on-hold={onHold}>
        <span className="visually-hidden">{t('ui:call.duration')}</span>
        {onHold ? <span className={stage.timerHeld}>{t('ongoing.onHold')}</span> : null}
        {/* one duration from the answer on, across hold and resume */}
        <time role="timer" aria-live="off">
          {callStartedAt !== null ? elapsed : t('ui:call.connecting')}
        </time>
      </span>
    </div>
  );

  return (
    <section className={styles.call} data-screen="ongoing" data-on-hold={onHold} data-call-kind={video ? 'video' : 'voice'} data-side-panel={chatOpen || deviceConfigOpen} aria-label={video ? t('ui:call.videoCall') : t('ui:call.voiceCall')}>
      <MediaNotice />
      <LineNotice />
      {video ? (
        <div className={styles.stage} data-zoomed={!!zoomedScreen}>
          {zoomedScreen ? <ScreenTile className={stage.remote} screen={zoomedScreen} label={t('ui:call.sharedScreen')} /> : null}
          <VideoTile
            className={zoomedScreen ? `${stage.strip} ${styles.strip}` : stage.remote}
            videoOff={remoteVideoMuted}
            stream={remote?.stream ?? null}
            peer={remote?.feedId}
            label={remote ? agentName : undefined}
            volume={volume}
            sinkId={sinkId}
            data-testid="remote-video"
            placeholder={
              remote ? (
                <span className={styles.remoteOff}>
                  <Avatar name={agentName} imageUrl={agentImage} imageAlt={agentName} size={96} fallbackIcon={<Headset size={40} />} />
                  <span>{t('ui:call.cameraIsOff')}</span>
                </span>
              ) : onHold ? (
                // on hold the agent's media is gone: the tile, under the hold page, says so (never "Connecting…")
                <span className={styles.remoteOff} data-testid="remote-on-hold">
                  <Pause size={36} aria-hidden="true" />
                  <span>{t('ongoing.onHold')}</span>
                </span>
              ) : (
                <span className={styles.remoteOff}>
                  <Spinner size={36} />
                  <span>{t('ui:call.connecting')}</span>
                </span>
              )
            }
          />
          <SelfView className={styles.self} stream={localStream} videoOff={videoMuted} label={t('ui:call.you')} cameraOffLabel={t('ui:call.cameraIsOff')} iconSize={22} />
          <OthersColumn
            className={styles.others}
            layout={layout}
            engine={engine}
            video
            nameOf={(o) => nameOf(o.display)}
            volumeOf={() => volume}
            sinkId={sinkId}
          />
          {localScreen ? (
            <p className={`${stage.pill} ${styles.sharingNote}`} role="status" data-testid="sharing-note">
              {t('ui:call.youAreSharing')}
            </p>
          ) : null}
          {status}
        </div>
      ) : (
        <div className={`${styles.stage} ${styles.voice}`}>
          {status}
          <div className={styles.voiceCenter}>
            <span className={`${styles.avatarRings} ${remote ? styles.live : ''}`}>
              <Avatar name={remote ? agentName : null} imageUrl={agentImage} imageAlt={agentName} size={128} fallbackIcon={<Headset size={52} />} />
            </span>
            <p className={styles.voiceName}>{remote ? agentName : onHold ? t('ongoing.onHold') : t('ui:call.connecting')}</p>
            <p className={stage.voiceKind}>{t('ui:call.voiceCall')}</p>
          </div>
          <VideoTile
            className="visually-hidden"
            audioOnly
            stream={remote?.stream ?? null}
            peer={remote?.feedId}
            volume={volume}
            sinkId={sinkId}
            data-testid="remote-video"
          />
          {others.map((o) => (
            <VideoTile key={o.feedId} className="visually-hidden" audioOnly stream={o.stream} peer={o.feedId} volume={volume} sinkId={sinkId} data-testid="remote-video-other" />
          ))}
          {screen ? (
            <VideoTile className={styles.voiceScreen} stream={screen.stream} peer={screen.feedId} fit="contain" label={t('ui:call.sharedScreen')} data-testid="remote-screen" />
          ) : null}
        </div>
      )}
      {remote && (remoteAudioMuted || remoteVideoMuted) ? (
        <p className={`${stage.pill} ${styles.remoteMuted}`} role="status" data-testid="remote-muted" data-audio={remoteAudioMuted} data-video={remoteVideoMuted}>
          <MicOff size={16} aria-hidden="true" />
          {remoteAudioMuted ? t('ui:call.peerMicMuted', { name: agentName }) : t('ui:call.peerCameraOff', { name: agentName })}
        </p>
      ) : null}
      {watermark && !onHold ? (
        <div className={styles.watermark} data-testid="stream-watermark" aria-hidden="true">
          {watermarkLogo ? <img src={watermarkLogo} alt="" /> : <span>{company?.name}</span>}
        </div>
      ) : null}
      {onHold ? <HoldPage video={video} /> : null}
      {deviceConfigOpen ? <DevicePanel video={video} /> : null}
      {chatOpen ? <ChatPanel onClose={() => engine?.setChatOpen(false)} /> : null}
      {audioMuted ? (
        <p className={`${stage.pill} ${styles.mutedNote}`} role="status">
          <MicOff size={16} aria-hidden="true" />
          {t('call.micMuted')}
        </p>
      ) : null}
      <CallControls video={video} />
    </section>
  );
}
