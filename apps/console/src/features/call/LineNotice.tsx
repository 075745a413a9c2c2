import { useTranslation } from 'react-i18next';
import { useConsoleStore } from '../../state/store.ts';
import styles from './CallArea.module.css';

/**
 * "Sound first" told (packages/call media/audioFirst.ts, docs/protocol.md "Line steps"): the agent's own
 * line is weak (its video paused to keep the sound, or sent smaller), or the guest's is (the guest's video
 * paused: its picture stands still). A polite live region (role=status), as the media notice.
 */
export function LineNotice() {
  const { t } = useTranslation();
  const own = useConsoleStore((s) => s.inCall.status?.lineStep ?? 'full');
  const guestPaused = useConsoleStore((s) => !!s.inCall.status?.weakLineJIDs.some((w) => w.step === 'audioOnly'));
  const key = own === 'audioOnly' ? 'call.lineOwnPaused' : guestPaused ? 'call.lineGuestPaused' : own === 'reduced' ? 'call.lineOwnReduced' : null;
  if (!key) return null;
  return (
    <p className={styles.mediaNotice} role="status" data-testid="agent-line-notice" data-notice={key}>
      {t(key)}
    </p>
  );
}
