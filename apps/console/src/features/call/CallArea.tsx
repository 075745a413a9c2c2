import { useTranslation } from 'react-i18next';
import MicOff from 'lucide-react/icons/mic-off';
import Headphones from 'lucide-react/icons/headphones';
import Coffee from 'lucide-react/icons/coffee';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Settings2 from 'lucide-react/icons/settings-2';
import { CallSettings } from './CallSettings.tsx';
import { useAgentInCall } from '../../state/store.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions, useDesk } from '../../state/agentActions.ts';
import { queueGuestName } from '../../state/guestName.ts';
import { TransferControl } from '../routing/TransferControl.tsx';
import styles from './CallArea.module.css';
import { WrapUpNote } from './WrapUpNote.tsx';
import { LineNotice } from './LineNotice.tsx';
import { MediaNotice } from './MediaNotice.tsx';
import { VideoTile, IconButton, Avatar, Spinner, useElapsed, ScreenTile, SelfView, NetworkQuality, stageStyles as stage } from '@lobby/ui';
import { ChatPanel } from '../chat/ChatPanel.tsx';
import { CallBar, OthersColumn, callMedia, callPanels, callStageStatus, stageLayout } from '@lobby/call-react';
import { useShallow } from 'zustand/react/shallow';

/** the buttons the chat and the settings panel give the focus back to when they close */
const CHAT_BUTTON_ID = 'agent-chat-button';
const SETTINGS_BUTTON_ID = 'agent-settings-button';

function CallControls({ video }: { video: boolean }) {
  const { t } = useTranslation(['translation', 'ui']);
  const actions = useAgentActions();
  const { audioMuted, videoMuted } = useConsoleStore(useShallow(callMedia));
  const engine = useDesk();
  const panels = useAgentInCall(useShallow((s) => callPanels(s.status)));
  const { chatOpen, devicesOpen: settingsOpen } = panels;
  const held = useAgentInCall((s) => s.held);
  return (
    <CallBar
      className={styles.controls}
      idPrefix="agent-"
      iconSize={22}
      video={video}
      engine={engine}
      canShareNow={!held}
      muted={{ audio: audioMuted, video: videoMuted }}
      actions={actions}
      panels={panels}
      leading={
        engine ? (
          <IconButton
            label={held ? t('inCall.resume') : t('inCall.hold')}
            icon={held ? <Play size={22} /> : <Pause size={22} />}
            tone={held ? 'off' : 'default'}
            onClick={() => (held ? engine.resume() : void engine.hold())}
            data-testid="agent-hold-button"
            data-held={held}
          />
        ) : null
      }
      devices={
        engine
          ? {
              id: SETTINGS_BUTTON_ID,
              label: settingsOpen ? t('inCall.closeSettings') : t('inCall.openSettings'),
              icon: <Settings2 size={22} />,
              testId: 'agent-settings-button',
              onToggle: () => engine.setDeviceConfigOpen(!settingsOpen),
            }
          : undefined
      }
      chat={engine ? { id: CHAT_BUTTON_ID, onToggle: () => engine.setChatOpen(!chatOpen) } : undefined}
    >
      <TransferControl />
    </CallBar>
  );
}

/** Calls other agents are in, to join (a supervisor listens in and can speak: up to 10 publishers). */
function RunningCalls() {
  const { t } = useTranslation(['translation', 'ui']);
  const calls = useAgentInCall((s) => s.runningCalls);
  const engine = useDesk();
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
              <bdi>{queueGuestName(c)}</bdi> <span className={styles.assignment}>{c.assignmentName ?? ''}</span>
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
  const { localStream, remoteFeeds, videoMuted, networkQuality } = useConsoleStore(useShallow(callMedia));
  const mediaNotice = useConsoleStore((s) => s.mediaNotice);
  const away = useConsoleStore((s) => s.availability === 'away');
  const elapsed = useElapsed(call?.talkingSince ?? null);
  const engine = useDesk();
  const { mainUser, zoomed: isZoomed, chatOpen, devicesOpen: settingsOpen, mutedAudio, mutedVideo } = useAgentInCall(useShallow((s) => callStageStatus(s.status)));
  const localScreen = useAgentInCall((s) => s.localScreen);
  const held = useAgentInCall((s) => s.held);
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

  // the main picture is the participant the agent chose (mainUser), else the guest's camera; other
  // agents (a supervisor) are small tiles
  // the guest's media and presence carry its nick (its username, the call id's first part); guestName is for people
  const { guestNick } = call;
  const layout = stageLayout({ feeds: remoteFeeds, mainUser, zoomed: isZoomed, preferred: guestNick });
  const { cameras, main: remote, preferredFeed: guestFeed, zoomedScreen } = layout;
  const remoteIsGuest = remote !== null && remote === guestFeed;
  const remoteName = remote && !remoteIsGuest ? remote.display : call.guestName;
  const volumeOf = (display: string | undefined) => (display === undefined ? 1 : (volumes[display] ?? 1));
  const participants = [...(guestFeed ? [guestFeed] : []), ...cameras.filter((r) => r !== guestFeed)].map((r) => ({
    display: r.display,
    name: r === guestFeed ? call.guestName : r.display,
  }));
  const isGuest = (jid: string) => jid === guestNick || jid.split('@')[0] === guestNick;
  const guestAudioMuted = mutedAudio.some(isGuest);
  const guestVideoMuted = mutedVideo.some(isGuest);
  const video = call.callType === 'video';
  return (
    <section
      className={styles.call}
      data-testid="active-call"
      data-call-id={call.callId}
      data-call-kind={call.callType}
      data-guest-presence={call.guestStatus}
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
            {call.talkingSince ? elapsed : t('ui:call.connecting')}
          </time>
        </span>
      </div>
      <MediaNotice />
      <LineNotice />
      <div className={styles.stage}>
        {zoomedScreen ? <ScreenTile className={stage.remote} screen={zoomedScreen} label={t('ui:call.sharedScreen')} /> : null}
        {video ? (
          <VideoTile
            className={zoomedScreen ? `${stage.strip} ${styles.strip}` : stage.remote}
            videoOff={remoteIsGuest && guestVideoMuted}
            stream={remote?.stream ?? null}
            peer={remote?.feedId}
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
            <VideoTile className="visually-hidden" audioOnly stream={remote?.stream ?? null} peer={remote?.feedId} volume={volumeOf(remote?.display)} sinkId={speakerId} data-testid="remote-video" />
          </div>
        )}
        {video ? (
          <SelfView className={styles.self} stream={localStream} videoOff={videoMuted} label={t('ui:call.you')} cameraOffLabel={t('ui:call.cameraIsOff')} />
        ) : null}
        <OthersColumn
          className={styles.others}
          layout={layout}
          engine={engine}
          video={video}
          nameOf={(o) => (o === guestFeed ? call.guestName : o.display)}
          volumeOf={(o) => volumeOf(o.display)}
          sinkId={speakerId}
        />
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
