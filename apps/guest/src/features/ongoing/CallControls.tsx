import { useTranslation } from '../../i18n/index.ts';
import Mic from 'lucide-react/icons/mic';
import MicOff from 'lucide-react/icons/mic-off';
import Video from 'lucide-react/icons/video';
import VideoOff from 'lucide-react/icons/video-off';
import PhoneOff from 'lucide-react/icons/phone-off';
import MessageCircle from 'lucide-react/icons/message-circle';
import Settings from 'lucide-react/icons/settings';
import { ScreenShareButton } from '../screenshare/ScreenShareButton.tsx';
import { useInCall } from '../../state/store.ts';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import styles from './OngoingScreen.module.css';
import { ChatButton, IconButton } from '@lobby/ui';
import { CHAT_BUTTON_ID, DEVICES_BUTTON_ID } from './panelOpeners.ts';

/** Mute, camera (video calls) and hang up. Labels say what a press will do. */
export function CallControls({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const actions = useCallActions();
  const audioMuted = useGuestStore((s) => s.audioMuted);
  const videoMuted = useGuestStore((s) => s.videoMuted);
  const engine = useInCall((s) => s.engine);
  const chatOpen = useInCall((s) => !!s.status?.isChatOpen);
  const unread = useInCall((s) => s.status?.unreadMessages ?? 0);
  const devicesOpen = useInCall((s) => !!s.status?.deviceConfigOpen);
  return (
    <div className={styles.controls} role="toolbar" aria-label={t('ui:call.controls')}>
      <IconButton
        label={audioMuted ? t('ui:call.unmuteAudio') : t('ui:call.muteAudio')}
        icon={audioMuted ? <MicOff size={24} /> : <Mic size={24} />}
        tone={audioMuted ? 'off' : 'default'}
        onClick={() => actions.toggleAudio()}
        data-testid="mute-audio-button"
        data-muted={audioMuted}
      />
      {video ? (
        <IconButton
          label={videoMuted ? t('ui:call.cameraOn') : t('ui:call.cameraOff')}
          icon={videoMuted ? <VideoOff size={24} /> : <Video size={24} />}
          tone={videoMuted ? 'off' : 'default'}
          onClick={() => actions.toggleVideo()}
          data-testid="mute-video-button"
          data-muted={videoMuted}
        />
      ) : null}
      {engine ? <ScreenShareButton /> : null}
      {engine ? (
        <IconButton
          label={t('ongoing.devices')}
          icon={<Settings size={24} />}
          onClick={() => {
            // one side panel at a time: both dock in the same place, and the chat would cover the settings
            if (!devicesOpen) engine.setChatOpen(false);
            engine.setDeviceConfigOpen(!devicesOpen);
          }}
          id={DEVICES_BUTTON_ID}
          data-testid="devices-button"
          aria-expanded={devicesOpen}
        />
      ) : null}
      {engine ? (
        <ChatButton
          id={CHAT_BUTTON_ID}
          open={chatOpen}
          unread={unread}
          icon={<MessageCircle size={24} />}
          onToggle={() => {
            if (!chatOpen) engine.setDeviceConfigOpen(false);
            engine.setChatOpen(!chatOpen);
          }}
          data-testid="chat-toggle-button"
          badgeTestId="chat-unread"
        />
      ) : null}
      <IconButton
        label={t('ui:call.hangup')}
        icon={<PhoneOff size={26} />}
        tone="danger"
        onClick={() => void actions.hangup()}
        data-testid="hangup-button"
      />
    </div>
  );
}
