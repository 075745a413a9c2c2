import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { DeviceSelect, SidePanel, sidePanelStyles } from '@lobby/ui';
import SwitchCamera from 'lucide-react/icons/switch-camera';
import { useGuestStore, useInCall } from '../../state/store.ts';
import { DEVICES_BUTTON_ID } from '../ongoing/panelOpeners.ts';
import styles from './DevicePanel.module.css';

type Kind = 'audioinput' | 'videoinput' | 'audiooutput';

/** The devices of each kind, refreshed when a device is plugged in or out. */
function useDevices(): Record<Kind, MediaDeviceInfo[]> {
  const [devices, setDevices] = useState<Record<Kind, MediaDeviceInfo[]>>({ audioinput: [], videoinput: [], audiooutput: [] });
  useEffect(() => {
    const md = navigator.mediaDevices;
    if (!md?.enumerateDevices) return;
    const load = () =>
      void md.enumerateDevices().then((all) =>
        setDevices({
          audioinput: all.filter((d) => d.kind === 'audioinput'),
          videoinput: all.filter((d) => d.kind === 'videoinput'),
          audiooutput: all.filter((d) => d.kind === 'audiooutput'),
        }),
      );
    load();
    md.addEventListener('devicechange', load);
    return () => md.removeEventListener('devicechange', load);
  }, []);
  return devices;
}

const canChooseSpeaker = typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** Camera, microphone and speaker during the call, front/back camera, and the call's volume. */
export function DevicePanel({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const engine = useInCall((s) => s.engine);
  const volume = useInCall((s) => s.status?.callVolume ?? 1);
  const isBackCam = useInCall((s) => !!s.status?.isBackCam);
  const sinkId = useInCall((s) => s.sinkId);
  const setSinkId = useGuestStore((s) => s.setSinkId);
  const localStream = useGuestStore((s) => s.localStream);
  const flipCamera = useGuestStore((s) => !!s.company?.flipCamera);
  const devices = useDevices();
  const [failed, setFailed] = useState(false);
  const current = (kind: 'audio' | 'video') =>
    (kind === 'audio' ? localStream?.getAudioTracks()[0] : localStream?.getVideoTracks()[0])?.getSettings().deviceId ?? '';

  const change = async (choice: { audioDeviceId?: string; videoDeviceId?: string; backCam?: boolean }) => {
    setFailed(false);
    try {
      await engine?.changeDevices(choice);
    } catch {
      setFailed(true);
    }
  };

  return (
    <SidePanel
      title={t('ongoing.devices')}
      closeLabel={t('ongoing.closeDevices')}
      onClose={() => engine?.setDeviceConfigOpen(false)}
      openerId={DEVICES_BUTTON_ID}
      data-testid="device-panel"
      aria-label={t('ongoing.devices')}
    >
      {video ? (
        <DeviceSelect
          label={t('ui:call.camera')}
          devices={devices.videoinput}
          value={current('video')}
          onChange={(id) => void change({ videoDeviceId: id })}
          unnamed={t('ui:call.device')}
          data-testid="camera-select"
        />
      ) : null}
      {video && (flipCamera || devices.videoinput.length > 1) ? (
        <button type="button" className={styles.flip} onClick={() => void change({ backCam: !isBackCam })} data-testid="flip-camera-button" data-back={isBackCam}>
          <SwitchCamera size={18} aria-hidden="true" /> {isBackCam ? t('ongoing.frontCamera') : t('ongoing.backCamera')}
        </button>
      ) : null}
      <DeviceSelect
        label={t('ui:call.microphone')}
        devices={devices.audioinput}
        value={current('audio')}
        onChange={(id) => void change({ audioDeviceId: id })}
        unnamed={t('ui:call.device')}
        data-testid="microphone-select"
      />
      {canChooseSpeaker && devices.audiooutput.length ? (
        <DeviceSelect
          label={t('ongoing.speaker')}
          devices={devices.audiooutput}
          value={sinkId}
          onChange={setSinkId}
          unnamed={t('ui:call.device')}
          defaultIsEmpty
          data-testid="speaker-select"
        />
      ) : null}
      <label className={sidePanelStyles.field}>
        {t('ongoing.volume')}
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={volume}
          onChange={(e) => engine?.setCallVolume(Number(e.target.value))}
          data-testid="volume-slider"
        />
      </label>
      {failed ? (
        <p className={sidePanelStyles.error} role="alert">
          {t('ui:call.deviceFailed')}
        </p>
      ) : null}
    </SidePanel>
  );
}

/** Applies the call volume and the chosen speaker to every remote media element of the call. */
export function useRemoteAudioSettings(root: HTMLElement | null): void {
  const volume = useInCall((s) => s.status?.callVolume ?? 1);
  const sinkId = useInCall((s) => s.sinkId);
  useEffect(() => {
    if (!root) return;
    const apply = () => {
      for (const element of root.querySelectorAll<HTMLMediaElement>('video, audio')) {
        if (element.muted) continue; // our own self-view
        element.volume = volume;
        const withSink = element as HTMLMediaElement & { setSinkId?: (id: string) => Promise<void>; sinkId?: string };
        if (withSink.setSinkId && withSink.sinkId !== sinkId) void withSink.setSinkId(sinkId).catch(() => undefined);
      }
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(root, { subtree: true, childList: true });
    return () => observer.disconnect();
  }, [root, volume, sinkId]);
}
