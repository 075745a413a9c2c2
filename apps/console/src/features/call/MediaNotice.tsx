import { useTranslation } from 'react-i18next';
import type { MediaNotice as Notice } from '@lobby/call';
import { useConsoleStore } from '../../state/store.ts';
import styles from './CallArea.module.css';

type Key =
  | 'call.mediaWaiting'
  | 'call.mediaReconnecting'
  | 'call.mediaUnreachable'
  | 'call.networkReconnecting'
  | 'call.guestReconnecting'
  | 'call.guestChangingPage'
  | 'call.mediaLost'
  | 'call.mediaDown'
  | 'call.connectionLost';

/** Each notice's words (packages/call media/mediaHealth.ts), and the errors that cut a call. */
const NOTICE_KEYS: Record<Exclude<Notice, null>, Key> = {
  waitingForServer: 'call.mediaWaiting',
  reconnecting: 'call.mediaReconnecting',
  serverUnreachable: 'call.mediaUnreachable',
  networkReconnecting: 'call.networkReconnecting',
  peerReconnecting: 'call.guestReconnecting',
};
const LOST_KEYS: Partial<Record<string, Key>> = {
  mediaLost: 'call.mediaLost',
  mediaServerDown: 'call.mediaDown',
  iceFailed: 'call.connectionLost',
};

/**
 * What the agent is told while the call's media is in trouble (packages/call
 * media/mediaHealth.ts): Janus waited for or reconnected to, our own connection or the guest's
 * interrupted (ICE restart, the guest's media stalled), or the call cut because the media was lost.
 * A guest changing page on the website (packages/call agent/guestPageChange.ts, docs/widget.md "Moving
 * between pages") is said instead of its media stalling, which is what its page going looks like here;
 * the video service's and our own connection's troubles still come first.
 */
export function MediaNotice() {
  const { t } = useTranslation();
  const media = useConsoleStore((s) => s.mediaNotice);
  const changingPage = useConsoleStore((s) => s.guestChangingPage);
  const lostKey = useConsoleStore((s) => (s.error ? LOST_KEYS[s.error] : undefined));
  const notice = changingPage && (!media || media === 'peerReconnecting') ? 'guestChangingPage' : media;
  if (!notice && !lostKey) return null;
  const key = notice === 'guestChangingPage' ? 'call.guestChangingPage' : notice ? NOTICE_KEYS[notice] : lostKey!;
  return (
    <p className={styles.mediaNotice} role="status" data-testid="agent-media-notice" data-notice={notice ?? 'lost'}>
      {t(key)}
    </p>
  );
}
