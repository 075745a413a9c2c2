import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect, SidePanel, sidePanelStyles } from '@lobby/ui';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentInCall } from '../../state/store.ts';
import { useInputDevices } from './useDevices.ts';
import styles from './CallSettings.module.css';

export interface Participant {
  /** the feed's display: the guest's username or an agent's JID */
  display: string;
  /** what the agent reads: the guest's name, or the other agent's */
  name: string;
}

/**
 * The agent's in-call settings (deviceConfigOpen): camera and microphone during the call
 * (deviceConfigChanged, without dropping it), each participant's volume, and who is shown large
 * (mainUser) when more than one other person is in the call.
 */
export function CallSettings({ video, participants, main, onClose, openerId }: {
  video: boolean;
  participants: readonly Participant[];
  /** the display shown large now */
  main: string | null;
  onClose: () => void;
  /** the settings button: the focus goes back to it when the panel closes */
  openerId: string;
}) {
  const { t } = useTranslation(['translation', 'ui']);
  const engine = useAgentInCall((s) => s.engine);
  const volumes = useAgentInCall((s) => s.volumes);
  const localStream = useConsoleStore((s) => s.localStream);
  const { cameras, microphones, speakers } = useInputDevices();
  const speakerId = useAgentInCall((s) => s.speakerId);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = (kind: 'audio' | 'video') =>
    (kind === 'audio' ? localStream?.getAudioTracks()[0] : localStream?.getVideoTracks()[0])?.getSettings().deviceId ?? '';

  const change = async (choice: { audioDeviceId?: string; videoDeviceId?: string }) => {
    if (!engine) return;
    setFailed(false);
    setBusy(true);
    try {
      await engine.changeDevices(choice);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  const setVolume = useConsoleStore((s) => s.setVolume);
  const setSpeakerId = useConsoleStore((s) => s.setSpeakerId);
  return (
    <SidePanel
      title={t('inCall.settings')}
      closeLabel={t('inCall.closeSettings')}
      onClose={onClose}
      openerId={openerId}
      data-testid="agent-settings-panel"
      aria-labelledby="call-settings-title"
    >
        {video ? (
          <DeviceSelect
            label={t('ui:call.camera')}
            devices={cameras}
            value={current('video')}
            disabled={busy}
            onChange={(id) => void change({ videoDeviceId: id })}
            unnamed={t('ui:call.device')}
            data-testid="agent-camera-select"
          />
        ) : null}
        <DeviceSelect
          label={t('ui:call.microphone')}
          devices={microphones}
          value={current('audio')}
          disabled={busy}
          onChange={(id) => void change({ audioDeviceId: id })}
          unnamed={t('ui:call.device')}
          data-testid="agent-microphone-select"
        />
        {speakers.length ? (
          <DeviceSelect
            label={t('inCall.speaker')}
            devices={speakers}
            value={speakerId}
            onChange={setSpeakerId}
            unnamed={t('ui:call.device')}
            defaultIsEmpty
            data-testid="agent-speaker-select"
          />
        ) : null}
        {failed ? (
          <p className={sidePanelStyles.error} role="alert">
            {t('ui:call.deviceFailed')}
          </p>
        ) : null}
        {participants.length ? (
          <fieldset className={styles.group}>
            <legend className={styles.legend}>{t('inCall.participants')}</legend>
            {participants.map((p) => (
              <div key={p.display} className={styles.participant} data-testid="participant-settings" data-participant={p.display}>
                <bdi className={styles.name}>{p.name}</bdi>
                <label className={styles.volume}>
                  <span className="visually-hidden">{t('inCall.volumeOf', { name: p.name })}</span>
                  <input
                    type="range"
                    min={0}
                    max={1}
                    step={0.05}
                    value={volumes[p.display] ?? 1}
                    aria-valuetext={`${Math.round((volumes[p.display] ?? 1) * 100)}%`}
                    onChange={(e) => setVolume(p.display, Number(e.target.value))}
                    data-testid="participant-volume"
                  />
                </label>
                {participants.length > 1 ? (
                  <label className={styles.main}>
                    <input
                      type="radio"
                      name="main-participant"
                      checked={main === p.display}
                      onChange={() => engine?.setMainUser(p.display)}
                      data-testid="main-participant-radio"
                    />
                    {t('inCall.showLarge')}
                  </label>
                ) : null}
              </div>
            ))}
          </fieldset>
        ) : null}
    </SidePanel>
  );
}
