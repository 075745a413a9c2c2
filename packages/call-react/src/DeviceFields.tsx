import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect, sidePanelStyles } from '@lobby/ui';
import { currentDeviceId, useDeviceChange, useDeviceList, type DeviceChangeEngine } from './devices.ts';

/**
 * The devices part of both apps' in-call panels (the guest's camera and sound, the agent's settings):
 * camera (video calls), what the app adds after it (the guest's front/back switch), microphone, speaker
 * where the browser can choose one, and the message when a change failed. Test ids take the app's
 * prefix ('' for the guest, 'agent-' for the console).
 */
export interface DeviceFieldsProps {
  engine: DeviceChangeEngine | null;
  localStream: MediaStream | null;
  video: boolean;
  idPrefix?: string;
  /** the chosen speaker ('' for the default) and how to choose another */
  speakerId: string;
  onSpeaker: (deviceId: string) => void;
  speakerLabel: string;
  /** the app's controls after the camera (the guest's front/back switch); receives the change */
  afterCamera?: (change: (choice: { backCam: boolean }) => void, cameras: number) => ReactNode;
}

export function DeviceFields(props: DeviceFieldsProps) {
  const { t } = useTranslation(['ui']);
  const { idPrefix = '' } = props;
  const devices = useDeviceList();
  const { change, busy, failed } = useDeviceChange(props.engine);
  return (
    <>
      {props.video ? (
        <DeviceSelect
          label={t('ui:call.camera')}
          devices={devices.cameras}
          value={currentDeviceId(props.localStream, 'video')}
          disabled={busy}
          onChange={(id) => void change({ videoDeviceId: id })}
          unnamed={t('ui:call.device')}
          data-testid={`${idPrefix}camera-select`}
        />
      ) : null}
      {props.video && props.afterCamera ? props.afterCamera((choice) => void change(choice), devices.cameras.length) : null}
      <DeviceSelect
        label={t('ui:call.microphone')}
        devices={devices.microphones}
        value={currentDeviceId(props.localStream, 'audio')}
        disabled={busy}
        onChange={(id) => void change({ audioDeviceId: id })}
        unnamed={t('ui:call.device')}
        data-testid={`${idPrefix}microphone-select`}
      />
      {devices.speakers.length ? (
        <DeviceSelect
          label={props.speakerLabel}
          devices={devices.speakers}
          value={props.speakerId}
          onChange={props.onSpeaker}
          unnamed={t('ui:call.device')}
          defaultIsEmpty
          data-testid={`${idPrefix}speaker-select`}
        />
      ) : null}
      {failed ? (
        <p className={sidePanelStyles.error} role="alert">
          {t('ui:call.deviceFailed')}
        </p>
      ) : null}
    </>
  );
}
