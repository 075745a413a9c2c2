import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Mic from 'lucide-react/icons/mic';
import MicOff from 'lucide-react/icons/mic-off';
import Video from 'lucide-react/icons/video';
import VideoOff from 'lucide-react/icons/video-off';
import PhoneOff from 'lucide-react/icons/phone-off';
import MonitorUp from 'lucide-react/icons/monitor-up';
import MonitorX from 'lucide-react/icons/monitor-x';
import MessageCircle from 'lucide-react/icons/message-circle';
import { ChatButton, IconButton } from '@lobby/ui';
import { useScreenShare, type ScreenShareEngine } from './screenShare.ts';
import type { CallPanels } from './selectors.ts';

/**
 * The call bar both apps show under the stage (docs/architecture.md "In-call UI"): the microphone, the
 * camera (video calls), the screen, the app's own (hold), the devices and chat panels' toggles, the app's
 * own again (transfer) and hang up, each
 * labelled with what a press will do. The app passes its test ids' prefix ('' for the guest, 'agent-' for
 * the console), its icon size and its own class for the bar.
 */
export interface CallBarProps {
  className?: string;
  /** 'agent-' in the console: its buttons are `agent-mute-audio-button`… */
  idPrefix?: string;
  iconSize: number;
  video: boolean;
  /** our own microphone and camera, muted or not */
  muted: { audio: boolean; video: boolean };
  /** what the mute, camera and hang-up buttons do (the app's call actions) */
  actions: CallBarActions;
  /** the panels' and the screen's state (callPanels of the engine's status) */
  panels: CallPanels;
  /** the engine while in a call (the screen-share button shows only then, where the browser can share) */
  engine: ScreenShareEngine | null;
  /** whether sharing is offered now (not while the call is held) */
  canShareNow?: boolean;
  /** the app's own buttons right after the screen (the console's hold) */
  leading?: ReactNode;
  /** the devices panel's toggle (the guest's camera and sound, the agent's settings) */
  devices?: PanelToggle & { label: string; icon: ReactNode; testId: string };
  /** the chat panel's toggle (its badge has the unread count) */
  chat?: PanelToggle;
  /** the app's own buttons before hang up (the console's transfer) */
  children?: ReactNode;
}

/** A side panel's button: its element id (the focus comes back to it) and what a press does. */
export interface PanelToggle {
  id: string;
  onToggle: () => void;
}

export interface CallBarActions {
  toggleAudio(): void;
  toggleVideo(): void;
  hangup(): unknown;
}

export function CallBar(props: CallBarProps) {
  const { t } = useTranslation(['ui']);
  const { idPrefix = '', iconSize: size, video, actions, panels } = props;
  const { audio: audioMuted, video: videoMuted } = props.muted;
  const sharing = panels.sharing;
  const share = useScreenShare(props.engine);
  return (
    <div className={props.className} role="toolbar" aria-label={t('ui:call.controls')}>
      <IconButton
        label={audioMuted ? t('ui:call.unmuteAudio') : t('ui:call.muteAudio')}
        icon={audioMuted ? <MicOff size={size} /> : <Mic size={size} />}
        tone={audioMuted ? 'off' : 'default'}
        onClick={() => actions.toggleAudio()}
        data-testid={`${idPrefix}mute-audio-button`}
        data-muted={audioMuted}
      />
      {video ? (
        <IconButton
          label={videoMuted ? t('ui:call.cameraOn') : t('ui:call.cameraOff')}
          icon={videoMuted ? <VideoOff size={size} /> : <Video size={size} />}
          tone={videoMuted ? 'off' : 'default'}
          onClick={() => actions.toggleVideo()}
          data-testid={`${idPrefix}mute-video-button`}
          data-muted={videoMuted}
        />
      ) : null}
      {share.supported && props.canShareNow !== false ? (
        <IconButton
          label={sharing ? t('ui:call.stopSharing') : t('ui:call.shareScreen')}
          icon={sharing ? <MonitorX size={size} /> : <MonitorUp size={size} />}
          tone={sharing ? 'off' : 'default'}
          disabled={share.busy}
          onClick={() => void share.toggle(sharing)}
          data-testid={`${idPrefix}screen-share-button`}
          data-sharing={sharing}
        />
      ) : null}
      {props.leading}
      {props.devices ? (
        <IconButton
          label={props.devices.label}
          icon={props.devices.icon}
          onClick={props.devices.onToggle}
          id={props.devices.id}
          data-testid={props.devices.testId}
          aria-expanded={panels.devicesOpen}
        />
      ) : null}
      {props.chat ? (
        <ChatButton
          id={props.chat.id}
          open={panels.chatOpen}
          unread={panels.unread}
          icon={<MessageCircle size={size} />}
          onToggle={props.chat.onToggle}
          data-testid={`${idPrefix}chat-toggle-button`}
          badgeTestId={`${idPrefix}chat-unread`}
        />
      ) : null}
      {props.children}
      <IconButton
        label={t('ui:call.hangup')}
        icon={<PhoneOff size={size + 2} />}
        tone="danger"
        onClick={() => void actions.hangup()}
        data-testid={`${idPrefix}hangup-button`}
      />
    </div>
  );
}
