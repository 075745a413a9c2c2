import { useTranslation } from 'react-i18next';
import Mic from 'lucide-react/icons/mic';
import MicOff from 'lucide-react/icons/mic-off';
import Video from 'lucide-react/icons/video';
import VideoOff from 'lucide-react/icons/video-off';
import PhoneOff from 'lucide-react/icons/phone-off';
import Headphones from 'lucide-react/icons/headphones';
import Coffee from 'lucide-react/icons/coffee';
import { useConsoleStore } from '../../app/store.ts';
import { useAgentActions } from '../../app/agentActions.ts';
import { VideoTile } from '../base/VideoTile.tsx';
import { IconButton } from '../base/IconButton.tsx';
import { Avatar } from '../base/Avatar.tsx';
import { Spinner } from '../base/Spinner.tsx';
import { useElapsed } from '../base/time.ts';
import styles from './CallArea.module.css';

function CallControls({ video }: { video: boolean }) {
  const { t } = useTranslation();
  const actions = useAgentActions();
  const audioMuted = useConsoleStore((s) => s.audioMuted);
  const videoMuted = useConsoleStore((s) => s.videoMuted);
  return (
    <div className={styles.controls} role="toolbar" aria-label={t('call.controls')}>
      <IconButton
        label={audioMuted ? t('call.unmuteAudio') : t('call.muteAudio')}
        icon={audioMuted ? <MicOff size={22} /> : <Mic size={22} />}
        tone={audioMuted ? 'off' : 'default'}
        onClick={() => actions.toggleAudio()}
        data-testid="agent-mute-audio-button"
        data-muted={audioMuted}
      />
      {video ? (
        <IconButton
          label={videoMuted ? t('call.cameraOn') : t('call.cameraOff')}
          icon={videoMuted ? <VideoOff size={22} /> : <Video size={22} />}
          tone={videoMuted ? 'off' : 'default'}
          onClick={() => actions.toggleVideo()}
          data-testid="agent-mute-video-button"
          data-muted={videoMuted}
        />
      ) : null}
      <IconButton
        label={t('call.hangup')}
        icon={<PhoneOff size={24} />}
        tone="danger"
        onClick={() => void actions.hangup()}
        data-testid="agent-hangup-button"
      />
    </div>
  );
}

/** The active call (remote large, self-view small, controls), or an idle state. */
export function CallArea() {
  const { t } = useTranslation();
  const call = useConsoleStore((s) => s.activeCall);
  const localStream = useConsoleStore((s) => s.localStream);
  const remoteStreams = useConsoleStore((s) => s.remoteStreams);
  const videoMuted = useConsoleStore((s) => s.videoMuted);
  const away = useConsoleStore((s) => s.availability === 'away');
  const elapsed = useElapsed(call?.startedAt ?? null);

  if (!call) {
    return (
      <section className={styles.idle} data-testid="call-idle" aria-labelledby="idle-title">
        <span className={styles.idleIcon} data-away={away} aria-hidden="true">
          {away ? <Coffee size={32} /> : <Headphones size={32} />}
        </span>
        <h2 id="idle-title" className={styles.idleTitle}>
          {away ? t('call.awayTitle') : t('call.idleTitle')}
        </h2>
        <p className={styles.idleBody}>{away ? t('call.awayBody') : t('call.idleBody')}</p>
      </section>
    );
  }

  const remote = remoteStreams[0] ?? null;
  const video = call.kind === 'video';
  return (
    <section
      className={styles.call}
      data-testid="active-call"
      data-call-id={call.callId}
      data-call-kind={call.kind}
      data-guest-presence={call.guestPresence}
      aria-label={t('call.with', { name: call.guestName })}
    >
      <div className={styles.bar}>
        <span className={styles.guest}>
          <bdi>{call.guestName}</bdi>
          <span className={styles.assignment}>{call.assignmentName}</span>
        </span>
        <span className={styles.timer}>
          <span className="visually-hidden">{t('call.duration')}</span>
          <time role="timer" aria-live="off">
            {call.startedAt ? elapsed : t('call.connecting')}
          </time>
        </span>
      </div>
      <div className={styles.stage}>
        {video ? (
          <VideoTile
            className={styles.remote}
            stream={remote?.stream ?? null}
            peer={remote?.id}
            label={call.guestName}
            data-testid="remote-video"
            placeholder={
              remote ? (
                <span className={styles.placeholder}>
                  <Avatar name={call.guestName} size={88} />
                  {t('call.cameraIsOff')}
                </span>
              ) : (
                <span className={styles.placeholder}>
                  <Spinner size={34} />
                  {t('call.connecting')}
                </span>
              )
            }
          />
        ) : (
          <div className={styles.voice}>
            <Avatar name={call.guestName} size={120} />
            <p className={styles.voiceName}>
              <bdi>{call.guestName}</bdi>
            </p>
            <p className={styles.voiceKind}>{t('call.voiceCall')}</p>
            <VideoTile className="visually-hidden" audioOnly stream={remote?.stream ?? null} peer={remote?.id} data-testid="remote-video" />
          </div>
        )}
        {video ? (
          <VideoTile
            className={styles.self}
            stream={localStream}
            muted
            mirrored
            videoOff={videoMuted}
            label={t('call.you')}
            peer="local"
            data-testid="local-video"
            placeholder={<VideoOff size={20} aria-label={t('call.cameraIsOff')} />}
          />
        ) : null}
      </div>
      <CallControls video={video} />
    </section>
  );
}
