import { useTranslation } from 'react-i18next';
import { useConsoleStore } from '../../state/store.ts';
import styles from './CallArea.module.css';

/**
 * What the agent is told while the media server fails (issue 12, packages/call media/mediaHealth.ts):
 * Janus waited for or reconnected to during a call, or the call cut because Janus lost its session.
 */
export function MediaNotice() {
  const { t } = useTranslation();
  const notice = useConsoleStore((s) => s.mediaNotice);
  const lost = useConsoleStore((s) => s.error === 'mediaLost');
  if (!notice && !lost) return null;
  const text = notice === 'reconnecting' ? t('call.mediaReconnecting') : notice ? t('call.mediaWaiting') : t('call.mediaLost');
  return (
    <p className={styles.mediaNotice} role="status" data-testid="agent-media-notice" data-notice={notice ?? 'lost'}>
      {text}
    </p>
  );
}
