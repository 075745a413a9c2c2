import { useTranslation } from 'react-i18next';
import VideoOff from 'lucide-react/icons/video-off';
import MicOff from 'lucide-react/icons/mic-off';
import Headset from 'lucide-react/icons/headset';
import { useGuestStore } from '../../app/store.ts';
import { VideoTile } from '../base/VideoTile.tsx';
import { Avatar } from '../base/Avatar.tsx';
import { Spinner } from '../base/Spinner.tsx';
import { useElapsed } from '../base/time.ts';
import { CallControls } from './CallControls.tsx';
import styles from './OngoingScreen.module.css';

/** The call itself: remote video large with a self-view, or the voice layout with the agent's avatar. */
export function OngoingScreen() {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const callType = useGuestStore((s) => s.callType);
  const localStream = useGuestStore((s) => s.localStream);
  const remoteStreams = useGuestStore((s) => s.remoteStreams);
  const videoMuted = useGuestStore((s) => s.videoMuted);
  const audioMuted = useGuestStore((s) => s.audioMuted);
  const callStartedAt = useGuestStore((s) => s.callStartedAt);
  const elapsed = useElapsed(callStartedAt);
  const remote = remoteStreams[0] ?? null;
  const agentName = remote?.display || t('call.agent');
  const video = callType !== 'voice';

  const status = (
    <div className={styles.status}>
      {company?.recordCalls !== false ? (
        <span className={styles.rec}>
          <span className={styles.recDot} aria-hidden="true" />
          {t('app.recording')}
        </span>
      ) : null}
      <span className={styles.timer}>
        <span className="visually-hidden">{t('call.duration')}</span>
        <time role="timer" aria-live="off">
          {remote ? elapsed : t('call.connecting')}
        </time>
      </span>
    </div>
  );

  return (
    <section className={styles.call} data-screen="ongoing" data-call-kind={video ? 'video' : 'voice'} aria-label={video ? t('call.videoCall') : t('call.voiceCall')}>
      {video ? (
        <div className={styles.stage}>
          <VideoTile
            className={styles.remote}
            stream={remote?.stream ?? null}
            peer={remote?.id}
            label={remote ? agentName : undefined}
            data-testid="remote-video"
            placeholder={
              remote ? (
                <span className={styles.remoteOff}>
                  <Avatar name={agentName} size={96} fallbackIcon={<Headset size={40} />} />
                  <span>{t('call.cameraIsOff')}</span>
                </span>
              ) : (
                <span className={styles.remoteOff}>
                  <Spinner size={36} />
                  <span>{t('call.connecting')}</span>
                </span>
              )
            }
          />
          <VideoTile
            className={styles.self}
            stream={localStream}
            muted
            mirrored
            videoOff={videoMuted}
            label={t('call.you')}
            peer="local"
            data-testid="local-video"
            placeholder={<VideoOff size={22} aria-label={t('call.cameraIsOff')} />}
          />
          {status}
        </div>
      ) : (
        <div className={`${styles.stage} ${styles.voice}`}>
          {status}
          <div className={styles.voiceCenter}>
            <span className={`${styles.avatarRings} ${remote ? styles.live : ''}`}>
              <Avatar name={remote ? agentName : null} size={128} fallbackIcon={<Headset size={52} />} />
            </span>
            <p className={styles.voiceName}>{remote ? agentName : t('call.connecting')}</p>
            <p className={styles.voiceKind}>{t('call.voiceCall')}</p>
          </div>
          <VideoTile
            className="visually-hidden"
            audioOnly
            stream={remote?.stream ?? null}
            peer={remote?.id}
            data-testid="remote-video"
          />
        </div>
      )}
      {audioMuted ? (
        <p className={styles.mutedNote} role="status">
          <MicOff size={16} aria-hidden="true" />
          {t('call.micMuted')}
        </p>
      ) : null}
      <CallControls video={video} />
    </section>
  );
}
