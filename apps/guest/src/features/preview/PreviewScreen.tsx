import { useId, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import Camera from 'lucide-react/icons/camera';
import ArrowRight from 'lucide-react/icons/arrow-right';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import SwitchCamera from 'lucide-react/icons/switch-camera';
import Mic from 'lucide-react/icons/mic';
import { useGuestStore, useGuestStoreApi } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { sendEvent } from '../../journey/controller.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { useMicLevel, usePreviewMedia } from './usePreviewMedia.ts';
import styles from './PreviewScreen.module.css';
import { Button, IconButton, VideoTile } from '@lobby/ui';

/** Device check before the call (company.previewScreen): live camera, microphone level, device choice, flip. */
export function PreviewScreen() {
  const { t } = useTranslation();
  const { t: tj } = useTranslation('journey');
  const actions = useCallActions();
  const store = useGuestStoreApi();
  const company = useGuestStore((s) => s.company);
  const videoDeviceId = useGuestStore((s) => s.videoDeviceId);
  const audioDeviceId = useGuestStore((s) => s.audioDeviceId);
  const rtl = useGuestStore((s) => s.language) === 'ar';
  const video = company?.callType !== 'voice';
  const [facing, setFacing] = useState<'user' | 'environment' | null>(null);
  const { stream, devices } = usePreviewMedia(video, videoDeviceId, audioDeviceId, facing, () =>
    sendEvent(store, { type: 'FAILED', disabledCamera: true }),
  );
  const level = useMicLevel(stream);
  const cameraId = useId();
  const micId = useId();
  const canFlip = video && (devices.cameras.length > 1 || !!company?.flipCamera);
  const flip = () => {
    if (devices.cameras.length > 1) {
      const current = stream?.getVideoTracks()[0]?.getSettings().deviceId ?? videoDeviceId;
      const index = devices.cameras.findIndex((d) => d.deviceId === current);
      const next = devices.cameras[(index + 1) % devices.cameras.length];
      if (next) actions.chooseDevices({ video: next.deviceId });
    } else {
      setFacing((f) => (f === 'environment' ? 'user' : 'environment'));
    }
  };
  const selectedCamera = stream?.getVideoTracks()[0]?.getSettings().deviceId ?? videoDeviceId ?? '';
  const selectedMic = stream?.getAudioTracks()[0]?.getSettings().deviceId ?? audioDeviceId ?? '';

  return (
    <MessageScreen
      screen="preview"
      title={t('preview.title')}
      body={<p>{t('preview.body')}</p>}
      actions={
        <Button block icon={rtl ? <ArrowLeft size={20} /> : <ArrowRight size={20} />} onClick={() => void actions.confirmPreview()} data-testid="continue-button">
          {t('preview.continue')}
        </Button>
      }
    >
      {video ? (
        <div className={styles.stage}>
          <VideoTile
            className={styles.preview}
            stream={stream}
            muted
            mirrored={facing !== 'environment'}
            peer="local"
            data-testid="local-video"
            placeholder={
              <span className={styles.empty}>
                <Camera size={30} aria-hidden="true" />
                <span>{t('preview.noCamera')}</span>
              </span>
            }
          />
          {canFlip ? (
            <IconButton className={styles.flip} label={tj('preview.flip')} icon={<SwitchCamera size={20} />} onClick={flip} data-testid="flip-camera-button" />
          ) : null}
        </div>
      ) : null}
      <div className={styles.meter}>
        <Mic size={18} aria-hidden="true" />
        <div
          className={styles.bar}
          role="meter"
          aria-label={tj('preview.micLevel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(level * 100)}
          data-testid="mic-level"
        >
          <span className={styles.fill} style={{ inlineSize: `${Math.round(level * 100)}%` }} />
        </div>
      </div>
      <p className={styles.hint}>{tj('preview.speakNow')}</p>
      <div className={styles.devices}>
        {video ? (
          <div className={styles.field}>
            <label htmlFor={cameraId}>{tj('preview.camera')}</label>
            <select id={cameraId} value={selectedCamera} onChange={(e) => actions.chooseDevices({ video: e.target.value })} data-testid="camera-select">
              {devices.cameras.map((d, i) => (
                <option key={d.deviceId || i} value={d.deviceId}>
                  {d.label || `${tj('preview.camera')} ${i + 1}`}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className={styles.field}>
          <label htmlFor={micId}>{tj('preview.microphone')}</label>
          <select id={micId} value={selectedMic} onChange={(e) => actions.chooseDevices({ audio: e.target.value })} data-testid="microphone-select">
            {devices.microphones.map((d, i) => (
              <option key={d.deviceId || i} value={d.deviceId}>
                {d.label || `${tj('preview.microphone')} ${i + 1}`}
              </option>
            ))}
          </select>
        </div>
      </div>
    </MessageScreen>
  );
}
