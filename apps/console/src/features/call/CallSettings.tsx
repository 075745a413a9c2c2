import { useTranslation } from 'react-i18next';
import { SidePanel } from '@lobby/ui';
import { DeviceFields, NoiseSuppressionSwitch, VolumeSlider } from '@lobby/call-react';
import { NOISE_SUPPRESSION } from './noiseSuppression.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentInCall } from '../../state/store.ts';
import { useDesk } from '../../state/agentActions.ts';
import styles from './CallSettings.module.css';

export interface Participant {
  /** the feed's display: the guest's username or an agent's JID */
  display: string;
  /** what the agent reads: the guest's name, or the other agent's */
  name: string;
}

/**
 * The agent's in-call settings (deviceConfigOpen): camera and microphone during the call
 * (deviceConfigChanged, without dropping it), noise suppression (on by default), each participant's volume, and who is shown large
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
  const engine = useDesk();
  const volumes = useAgentInCall((s) => s.volumes);
  const localStream = useConsoleStore((s) => s.localStream);
  const speakerId = useAgentInCall((s) => s.speakerId);
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
        <DeviceFields
          engine={engine}
          localStream={localStream}
          video={video}
          idPrefix="agent-"
          speakerId={speakerId}
          onSpeaker={setSpeakerId}
          speakerLabel={t('inCall.speaker')}
        />
        <NoiseSuppressionSwitch
          engine={engine}
          {...NOISE_SUPPRESSION}
          label={t('inCall.noiseSuppression')}
          hint={t('inCall.noiseSuppressionHint')}
          testId="agent-noise-suppression"
        />
        {participants.length ? (
          <fieldset className={styles.group}>
            <legend className={styles.legend}>{t('inCall.participants')}</legend>
            {participants.map((p) => (
              <div key={p.display} className={styles.participant} data-testid="participant-settings" data-participant={p.display}>
                <bdi className={styles.name}>{p.name}</bdi>
                <label className={styles.volume}>
                  <span className="visually-hidden">{t('inCall.volumeOf', { name: p.name })}</span>
                  <VolumeSlider
                    value={volumes[p.display] ?? 1}
                    valueText={`${Math.round((volumes[p.display] ?? 1) * 100)}%`}
                    onChange={(v) => setVolume(p.display, v)}
                    testId="participant-volume"
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
