import { useTranslation } from '../../i18n/index.ts';
import { MediaNotice } from '../call/MediaNotice.tsx';
import MicOff from 'lucide-react/icons/mic-off';
import Headset from 'lucide-react/icons/headset';
import Pause from 'lucide-react/icons/pause';
import { useGuestStore } from '../../state/store.ts';
import { CallControls } from './CallControls.tsx';
import { HoldPage } from '../hold/HoldPage.tsx';
import { DevicePanel, useRemoteAudioSettings } from '../devices/DevicePanel.tsx';
import { useState } from 'react';
import { NONE } from '../../state/inCall.ts';
import { useInCall } from '../../state/store.ts';
import styles from './OngoingScreen.module.css';
import { VideoTile, Avatar, Spinner, useElapsed, ScreenTile, SelfView, StageOthers, NetworkQuality, stageStyles as stage } from '@lobby/ui';
import { ChatPanel } from '../chat/ChatPanel.tsx';

/** The call itself: remote video large with a self-view, or the voice layout with the agent's avatar. */
export function OngoingScreen() {
  const { t } = useTranslation(['translation', 'ui']);
  const company = useGuestStore((s) => s.company);
  const callType = useGuestStore((s) => s.callType);
  const localStream = useGuestStore((s) => s.localStream);
  const remoteStreams = useGuestStore((s) => s.remoteStreams);
  const videoMuted = useGuestStore((s) => s.videoMuted);
  const audioMuted = useGuestStore((s) => s.audioMuted);
  const callStartedAt = useGuestStore((s) => s.callStartedAt);
  const networkQuality = useGuestStore((s) => s.networkQuality);
  const elapsed = useElapsed(callStartedAt);
  const cameras = remoteStreams.filter((r) => !r.display.endsWith('-screen'));
  const screens = remoteStreams.filter((r) => r.display.endsWith('-screen'));
  const mainUser = useInCall((s) => s.status?.mainUser ?? null);
  const isZoomed = useInCall((s) => !!s.status?.isZoomed);
  const chatOpen = useInCall((s) => !!s.status?.isChatOpen);
  const mutedAudio: readonly string[] = useInCall((s) => s.status?.mutedAudioJIDs ?? NONE);
  const mutedVideo: readonly string[] = useInCall((s) => s.status?.mutedVideoJIDs ?? NONE);
  const localScreen = useInCall((s) => s.localScreen);
  const engine = useInCall((s) => s.engine);
  const peers = useInCall((s) => s.status?.peers ?? NONE);
  /** the name an agent announced (docs/protocol.md), never its address */
  const nameOf = (display: string) => peers.find((p) => p.peerJID === display)?.name ?? t('call.agent');
  const onHold = useInCall((s) => s.status?.peerCall === 'Paused');
  const deviceConfigOpen = useInCall((s) => !!s.status?.deviceConfigOpen);
  const [root, setRoot] = useState<HTMLElement | null>(null);
  useRemoteAudioSettings(root);
  const watermark = company?.streamWatermark === 'visible';
  const watermarkLogo = company?.waterMarkLogo && /^https?:\/\//.test(company.waterMarkLogo) ? company.waterMarkLogo : null;
  const remote = cameras.find((r) => r.display === mainUser) ?? cameras[0] ?? null;
  const others = cameras.filter((r) => r !== remote);
  const screen = screens[0] ?? null;
  const zoomedScreen = screen && isZoomed ? screen : null;
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
    <section ref={setRoot} className={styles.call} data-screen="ongoing" data-on-hold={onHold} data-call-kind={video ? 'video' : 'voice'} data-side-panel={chatOpen || deviceConfigOpen} aria-label={video ? t('ui:call.videoCall') : t('ui:call.voiceCall')}>
      <MediaNotice />
      {video ? (
        <div className={styles.stage} data-zoomed={!!zoomedScreen}>
          {zoomedScreen ? <ScreenTile className={stage.remote} screen={zoomedScreen} label={t('ui:call.sharedScreen')} /> : null}
          <VideoTile
            className={zoomedScreen ? `${stage.strip} ${styles.strip}` : stage.remote}
            videoOff={remoteVideoMuted}
            stream={remote?.stream ?? null}
            peer={remote?.id}
            label={remote ? agentName : undefined}
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
          <StageOthers
            className={styles.others}
            screen={screen}
            zoomed={!!zoomedScreen}
            onZoom={() => engine?.setZoomed(true)}
            screenLabel={t('ui:call.sharedScreen')}
            zoomLabel={t('ui:call.showScreenLarge')}
          >
            {others.map((o) => (
              <VideoTile key={o.id} className={stage.otherTile} stream={o.stream} peer={o.id} label={nameOf(o.display)} data-testid="remote-video-other" />
            ))}
          </StageOthers>
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
            peer={remote?.id}
            data-testid="remote-video"
          />
          {others.map((o) => (
            <VideoTile key={o.id} className="visually-hidden" audioOnly stream={o.stream} peer={o.id} data-testid="remote-video-other" />
          ))}
          {screen ? (
            <VideoTile className={styles.voiceScreen} stream={screen.stream} peer={screen.id} fit="contain" label={t('ui:call.sharedScreen')} data-testid="remote-screen" />
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
