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
 */
export function MediaNotice() {
  const { t } = useTranslation();
  const notice = useConsoleStore((s) => s.mediaNotice);
  const lostKey = useConsoleStore((s) => (s.error ? LOST_KEYS[s.error] : undefined));
  if (!notice && !lostKey) return null;
  const key = notice ? NOTICE_KEYS[notice] : lostKey!;
  return (
    <p className={styles.mediaNotice} role="status" data-testid="agent-media-notice" data-notice={notice ?? 'lost'}>
      {t(key)}
    </p>
  );
}
