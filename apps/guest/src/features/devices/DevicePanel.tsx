import { useTranslation } from '../../i18n/index.ts';
import { SidePanel, sidePanelStyles } from '@lobby/ui';
import { DeviceFields, NoiseSuppressionSwitch, VolumeSlider } from '@lobby/call-react';
import { NOISE_SUPPRESSION } from './noiseSuppression.ts';
import SwitchCamera from 'lucide-react/icons/switch-camera';
import { useGuestStore, useInCall } from '../../state/store.ts';
import { useCallEngine } from '../../state/callActions.ts';
import { DEVICES_BUTTON_ID } from '../ongoing/panelOpeners.ts';
import styles from './DevicePanel.module.css';

/** Camera, microphone and speaker during the call, front/back camera, noise suppression (off by default), and the call's volume. */
export function DevicePanel({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const engine = useCallEngine();
  const volume = useInCall((s) => s.status?.callVolume ?? 1);
  const isBackCam = useInCall((s) => !!s.status?.isBackCam);
  const sinkId = useInCall((s) => s.sinkId);
  const setSinkId = useGuestStore((s) => s.setSinkId);
  const localStream = useGuestStore((s) => s.localStream);
  const flipCamera = useGuestStore((s) => !!s.company?.flipCamera);

  return (
    <SidePanel
      title={t('ongoing.devices')}
      closeLabel={t('ongoing.closeDevices')}
      onClose={() => engine?.setDeviceConfigOpen(false)}
      openerId={DEVICES_BUTTON_ID}
      data-testid="device-panel"
      aria-label={t('ongoing.devices')}
    >
      <DeviceFields
        engine={engine}
        localStream={localStream}
        video={video}
        speakerId={sinkId}
        onSpeaker={setSinkId}
        speakerLabel={t('ongoing.speaker')}
        afterCamera={(change, cameras) =>
          flipCamera || cameras > 1 ? (
            <button type="button" className={styles.flip} onClick={() => change({ backCam: !isBackCam })} data-testid="flip-camera-button" data-back={isBackCam}>
              <SwitchCamera size={18} aria-hidden="true" /> {isBackCam ? t('ongoing.frontCamera') : t('ongoing.backCamera')}
            </button>
          ) : null
        }
      />
      <NoiseSuppressionSwitch
        engine={engine}
        {...NOISE_SUPPRESSION}
        label={t('ongoing.noiseSuppression')}
        hint={t('ongoing.noiseSuppressionHint')}
        testId="noise-suppression"
      />
      <label className={sidePanelStyles.field}>
        {t('ongoing.volume')}
        <VolumeSlider value={volume} onChange={(v) => engine?.setCallVolume(v)} testId="volume-slider" />
      </label>
    </SidePanel>
  );
}
