import { useTranslation } from '../../i18n/index.ts';
import Settings from 'lucide-react/icons/settings';
import { useInCall } from '../../state/store.ts';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions, useCallEngine } from '../../state/callActions.ts';
import styles from './OngoingScreen.module.css';
import { CallBar, callMedia, callPanels } from '@lobby/call-react';
import { useShallow } from 'zustand/react/shallow';
import { CHAT_BUTTON_ID, DEVICES_BUTTON_ID } from './panelOpeners.ts';

/** The shared call bar with the guest's own buttons: camera and sound, and the chat. */
export function CallControls({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const actions = useCallActions();
  const { audioMuted, videoMuted } = useGuestStore(useShallow(callMedia));
  const engine = useCallEngine();
  const panels = useInCall(useShallow((s) => callPanels(s.status)));
  const { chatOpen, devicesOpen } = panels;
  return (
    <CallBar
      className={styles.controls}
      iconSize={24}
      video={video}
      muted={{ audio: audioMuted, video: videoMuted }}
      engine={engine}
      actions={actions}
      panels={panels}
      devices={
        engine
          ? {
              id: DEVICES_BUTTON_ID,
              label: t('ongoing.devices'),
              icon: <Settings size={24} />,
              testId: 'devices-button',
              onToggle: () => {
                // one side panel at a time: both dock in the same place, and the chat would cover the settings
                if (!devicesOpen) engine.setChatOpen(false);
                engine.setDeviceConfigOpen(!devicesOpen);
              },
            }
          : undefined
      }
      chat={
        engine
          ? {
              id: CHAT_BUTTON_ID,
              onToggle: () => {
                if (!chatOpen) engine.setDeviceConfigOpen(false);
                engine.setChatOpen(!chatOpen);
              },
            }
          : undefined
      }
    />
  );
}
