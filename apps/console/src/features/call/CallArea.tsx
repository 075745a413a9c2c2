import { useTranslation } from 'react-i18next';
import Mic from 'lucide-react/icons/mic';
import MicOff from 'lucide-react/icons/mic-off';
import Video from 'lucide-react/icons/video';
import VideoOff from 'lucide-react/icons/video-off';
import PhoneOff from 'lucide-react/icons/phone-off';
import Headphones from 'lucide-react/icons/headphones';
import Coffee from 'lucide-react/icons/coffee';
import MessageCircle from 'lucide-react/icons/message-circle';
import MonitorUp from 'lucide-react/icons/monitor-up';
import MonitorX from 'lucide-react/icons/monitor-x';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Settings2 from 'lucide-react/icons/settings-2';
import { useState } from 'react';
import { CallSettings } from './CallSettings.tsx';
import { NONE } from '../../state/inCall.ts';
import { useAgentInCall } from '../../state/store.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import { TransferControl } from '../routing/TransferControl.tsx';
import styles from './CallArea.module.css';
import { WrapUpNote } from './WrapUpNote.tsx';
import { MediaNotice } from './MediaNotice.tsx';
import { ChatButton, VideoTile, IconButton, Avatar, Spinner, useElapsed, ScreenTile, SelfView, StageOthers, NetworkQuality, stageStyles as stage } from '@lobby/ui';
import { ChatPanel } from '../chat/ChatPanel.tsx';

/** the buttons the chat and the settings panel give the focus back to when they close */
const CHAT_BUTTON_ID = 'agent-chat-button';
const SETTINGS_BUTTON_ID = 'agent-settings-button';

function CallControls({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const actions = useAgentActions();
  const audioMuted = useConsoleStore((s) => s.audioMuted);
  const videoMuted = useConsoleStore((s) => s.videoMuted);
  const engine = useAgentInCall((s) => s.engine);
  const chatOpen = useAgentInCall((s) => !!s.status?.isChatOpen);
  const unread = useAgentInCall((s) => s.status?.unreadMessages ?? 0);
  const sharing = useAgentInCall((s) => !!s.status?.screenShare);
  const [sharingBusy, setSharingBusy] = useState(false);
  const held = useAgentInCall((s) => s.held);
  const settingsOpen = useAgentInCall((s) => !!s.status?.deviceConfigOpen);
  const canShare = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getDisplayMedia;
  const toggleShare = async () => {
    if (!engine) return;
    setSharingBusy(true);
    try {
      if (sharing) await engine.stopScreenShare();
      else await engine.startScreenShare();
    } catch {
      // refused or cancelled: nothing is shared
    } finally {
      setSharingBusy(false);
    }
  };
  return (
    <div className={styles.controls} role="toolbar" aria-label={t('ui:call.controls')}>
      <IconButton
        label={audioMuted ? t('ui:call.unmuteAudio') : t('ui:call.muteAudio')}
        icon={audioMuted ? <MicOff size={22} /> : <Mic size={22} />}
        tone={audioMuted ? 'off' : 'default'}
        onClick={() => actions.toggleAudio()}
        data-testid="agent-mute-audio-button"
        data-muted={audioMuted}
      />
      {video ? (
        <IconButton
          label={videoMuted ? t('ui:call.cameraOn') : t('ui:call.cameraOff')}
          icon={videoMuted ? <VideoOff size={22} /> : <Video size={22} />}
          tone={videoMuted ? 'off' : 'default'}
          onClick={() => actions.toggleVideo()}
          data-testid="agent-mute-video-button"
          data-muted={videoMuted}
        />
      ) : null}
      {engine ? (
        <IconButton
          label={held ? t('inCall.resume') : t('inCall.hold')}
          icon={held ? <Play size={22} /> : <Pause size={22} />}
          tone={held ? 'off' : 'default'}
          onClick={() => (held ? engine.resume() : void engine.hold())}
          data-testid="agent-hold-button"
          data-held={held}
        />
      ) : null}
      {engine && canShare && !held ? (
        <IconButton
          label={sharing ? t('ui:call.stopSharing') : t('ui:call.shareScreen')}
          icon={sharing ? <MonitorX size={22} /> : <MonitorUp size={22} />}
          tone={sharing ? 'off' : 'default'}
          disabled={sharingBusy}
          onClick={() => void toggleShare()}
          data-testid="agent-screen-share-button"
          data-sharing={sharing}
        />
      ) : null}
      {engine ? (
        <IconButton
          label={settingsOpen ? t('inCall.closeSettings') : t('inCall.openSettings')}
          icon={<Settings2 size={22} />}
          onClick={() => engine.setDeviceConfigOpen(!settingsOpen)}
          id={SETTINGS_BUTTON_ID}
          data-testid="agent-settings-button"
          aria-expanded={settingsOpen}
        />
      ) : null}
      {engine ? (
        <ChatButton
          id={CHAT_BUTTON_ID}
          open={chatOpen}
          unread={unread}
          icon={<MessageCircle size={22} />}
          onToggle={() => engine.setChatOpen(!chatOpen)}
          data-testid="agent-chat-toggle-button"
          badgeTestId="agent-chat-unread"
        />
      ) : null}
      <TransferControl />
      <IconButton
        label={t('ui:call.hangup')}
        icon={<PhoneOff size={24} />}
        tone="danger"
        onClick={() => void actions.hangup()}
        data-testid="agent-hangup-button"
      />
    </div>
  );
}

/** Calls other agents are in, to join (a supervisor listens in and can speak: up to 10 publishers). */
function RunningCalls() {
  const { t } = useTranslation(['translation', 'ui']);
  const calls = useAgentInCall((s) => s.runningCalls);
  const engine = useAgentInCall((s) => s.engine);
  // the server refuses a second participant in a p2p call (docs/protocol.md "p2p")
  const refused = useConsoleStore((s) => !!s.error?.includes('p2pNoJoin'));
  if (!calls.length || !engine) return null;
  return (
    <div className={styles.running}>
      <h3 className={styles.runningTitle}>{t('inCall.runningCalls')}</h3>
      {refused ? (
        <p className={styles.mediaNotice} role="alert" data-testid="join-refused">
          {t('inCall.p2pNoJoin')}
        </p>
      ) : null}
      <ul className={styles.runningList}>
        {calls.map((c) => (
          <li key={c.callId} className={styles.runningItem} data-testid="running-call" data-call-id={c.callId}>
            <span>
              <bdi>{c.guestName}</bdi> <span className={styles.assignment}>{c.assignmentName}</span>
            </span>
            <button
              type="button"
              className={styles.joinButton}
              onClick={() => void engine.join(c.callId).catch(() => undefined)}
              data-testid="join-call-button"
            >
              {t('inCall.joinCall')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The active call (remote large, self-view small, controls), or an idle state. */
export function CallArea() {
  const { t } = useTranslation(['translation', 'ui']);
  const call = useConsoleStore((s) => s.activeCall);
  const localStream = useConsoleStore((s) => s.localStream);
  const remoteStreams = useConsoleStore((s) => s.remoteStreams);
  const videoMuted = useConsoleStore((s) => s.videoMuted);
  const mediaNotice = useConsoleStore((s) => s.mediaNotice);
  const networkQuality = useConsoleStore((s) => s.networkQuality);
  const away = useConsoleStore((s) => s.availability === 'away');
  const elapsed = useElapsed(call?.startedAt ?? null);
  const engine = useAgentInCall((s) => s.engine);
  const isZoomed = useAgentInCall((s) => !!s.status?.isZoomed);
  const chatOpen = useAgentInCall((s) => !!s.status?.isChatOpen);
  const mutedAudio: readonly string[] = useAgentInCall((s) => s.status?.mutedAudioJIDs ?? NONE);
  const mutedVideo: readonly string[] = useAgentInCall((s) => s.status?.mutedVideoJIDs ?? NONE);
  const localScreen = useAgentInCall((s) => s.localScreen);
  const held = useAgentInCall((s) => s.held);
  const settingsOpen = useAgentInCall((s) => !!s.status?.deviceConfigOpen);
  const mainUser = useAgentInCall((s) => s.status?.mainUser ?? null);
  const volumes = useAgentInCall((s) => s.volumes);
  const speakerId = useAgentInCall((s) => s.speakerId);

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
        <MediaNotice />
        <WrapUpNote />
        <RunningCalls />
      </section>
    );
  }

  const cameras = remoteStreams.filter((r) => !r.display.endsWith('-screen'));
  const screens = remoteStreams.filter((r) => r.display.endsWith('-screen'));
  // the main picture is the participant the agent chose (mainUser), else the guest's camera; other
  // agents (a supervisor) are small tiles
  // the guest's media and presence carry its username (the call id's first part); guestName is for people
  const guestNick = call.callId.split('--')[0] ?? '';
  const guestFeed = cameras.find((r) => r.display === guestNick) ?? null;
  const remote = cameras.find((r) => r.display === mainUser) ?? guestFeed ?? cameras[0] ?? null;
  const remoteIsGuest = remote !== null && remote === guestFeed;
  const remoteName = remote && !remoteIsGuest ? remote.display : call.guestName;
  const volumeOf = (display: string | undefined) => (display === undefined ? 1 : (volumes[display] ?? 1));
  const participants = [...(guestFeed ? [guestFeed] : []), ...cameras.filter((r) => r !== guestFeed)].map((r) => ({
    display: r.display,
    name: r === guestFeed ? call.guestName : r.display,
  }));
  const others = cameras.filter((r) => r !== remote);
  const screen = screens[0] ?? null;
  const zoomedScreen = screen && isZoomed ? screen : null;
  const isGuest = (jid: string) => jid === guestNick || jid.split('@')[0] === guestNick;
  const guestAudioMuted = mutedAudio.some(isGuest);
  const guestVideoMuted = mutedVideo.some(isGuest);
  const video = call.kind === 'video';
  return (
    <section
      className={styles.call}
      data-testid="active-call"
      data-call-id={call.callId}
      data-call-kind={call.kind}
      data-guest-presence={call.guestPresence}
      data-guest-audio-muted={guestAudioMuted}
      data-held={held}
      data-guest-video-muted={guestVideoMuted}
      data-media-notice={mediaNotice ?? ''}
      aria-label={t('call.with', { name: call.guestName })}
    >
      <div className={styles.bar}>
        <span className={styles.guest}>
          <bdi>{call.guestName}</bdi>
          <span className={styles.assignment}>{call.assignmentName}</span>
        </span>
        <NetworkQuality quality={networkQuality} />
        <span className={styles.timer} data-testid="agent-call-timer" data-held={held}>
          <span className="visually-hidden">{t('ui:call.duration')}</span>
          {held ? <span className={`${stage.timerHeld} ${styles.timerHeld}`}>{t('call.guestOnHold')}</span> : null}
          <time role="timer" aria-live="off">
            {call.startedAt ? elapsed : t('ui:call.connecting')}
          </time>
        </span>
      </div>
      <MediaNotice />
      <div className={styles.stage}>
        {zoomedScreen ? <ScreenTile className={stage.remote} screen={zoomedScreen} label={t('ui:call.sharedScreen')} /> : null}
        {video ? (
          <VideoTile
            className={zoomedScreen ? `${stage.strip} ${styles.strip}` : stage.remote}
            videoOff={remoteIsGuest && guestVideoMuted}
            stream={remote?.stream ?? null}
            peer={remote?.id}
            label={remoteName}
            volume={volumeOf(remote?.display)} sinkId={speakerId}
            data-testid="remote-video"
            placeholder={
              remote ? (
                <span className={styles.placeholder}>
                  <Avatar name={call.guestName} size={88} />
                  {t('ui:call.cameraIsOff')}
                </span>
              ) : held ? (
                <span className={styles.placeholder} data-testid="remote-on-hold">
                  <Pause size={34} aria-hidden="true" />
                  {t('call.guestOnHold')}
                </span>
              ) : (
                <span className={styles.placeholder}>
                  <Spinner size={34} />
                  {t('ui:call.connecting')}
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
            <p className={stage.voiceKind}>{t('ui:call.voiceCall')}</p>
            <VideoTile className="visually-hidden" audioOnly stream={remote?.stream ?? null} peer={remote?.id} volume={volumeOf(remote?.display)} sinkId={speakerId} data-testid="remote-video" />
          </div>
        )}
        {video ? (
          <SelfView className={styles.self} stream={localStream} videoOff={videoMuted} label={t('ui:call.you')} cameraOffLabel={t('ui:call.cameraIsOff')} />
        ) : null}
        <StageOthers
          className={styles.others}
          screen={screen}
          zoomed={!!zoomedScreen}
          onZoom={() => engine?.setZoomed(true)}
          screenLabel={t('ui:call.sharedScreen')}
          zoomLabel={t('ui:call.showScreenLarge')}
        >
          {others.map((o) =>
            video ? (
              <VideoTile key={o.id} className={stage.otherTile} stream={o.stream} peer={o.id} label={o === guestFeed ? call.guestName : o.display} volume={volumeOf(o.display)} sinkId={speakerId} data-testid="remote-video-other" />
            ) : (
              <VideoTile key={o.id} className="visually-hidden" audioOnly stream={o.stream} peer={o.id} volume={volumeOf(o.display)} sinkId={speakerId} data-testid="remote-video-other" />
            ),
          )}
        </StageOthers>
        {held ? (
          <p className={`${stage.pill} ${styles.note}`} role="status" data-testid="agent-on-hold">
            <Pause size={14} aria-hidden="true" /> {t('inCall.onHold')}
          </p>
        ) : null}
        {localScreen ? (
          <p className={`${stage.pill} ${styles.note}`} role="status" data-testid="agent-sharing-note">
            {t('ui:call.youAreSharing')}
          </p>
        ) : null}
        {guestAudioMuted || guestVideoMuted ? (
          <p className={`${stage.pill} ${styles.note} ${styles.noteLow}`} role="status" data-testid="guest-muted">
            <MicOff size={14} aria-hidden="true" />{' '}
            {guestAudioMuted
              ? t('ui:call.peerMicMuted', { name: call.guestName })
              : t('ui:call.peerCameraOff', { name: call.guestName })}
          </p>
        ) : null}
        {chatOpen ? <ChatPanel onClose={() => engine?.setChatOpen(false)} openerId={CHAT_BUTTON_ID} /> : null}
        {settingsOpen ? (
          <CallSettings
            video={video}
            participants={participants}
            main={remote?.display ?? null}
            onClose={() => engine?.setDeviceConfigOpen(false)}
            openerId={SETTINGS_BUTTON_ID}
          />
        ) : null}
      </div>
      <CallControls video={video} />
    </section>
  );
}
