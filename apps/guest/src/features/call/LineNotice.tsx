import { useTranslation } from '../../i18n/index.ts';
import { useInCall } from '../../state/store.ts';

/**
 * "Sound first" told (docs/protocol.md "Line steps"): our own line is weak (our video paused to keep the
 * sound, or sent smaller), or the agent's is (their video paused: their picture stands still). A polite live
 * region (role=status) beside the media notice of the server's troubles, as that one comes and goes.
 */
export function LineNotice() {
  const { t } = useTranslation();
  const own = useInCall((s) => s.status?.lineStep ?? 'full');
  const peerPaused = useInCall((s) => !!s.status?.weakLineJIDs.some((w) => w.step === 'audioOnly'));
  const notice = own === 'audioOnly' ? 'ownPaused' : peerPaused ? 'peerPaused' : own === 'reduced' ? 'ownReduced' : null;
  if (!notice) return null;
  return (
    <p role="status" data-testid="line-notice" data-notice={notice} style={{ margin: '0 0 12px', padding: '8px 12px', borderRadius: 8, background: '#fff4d6', color: '#5c4200', fontWeight: 600 }}>
      {t(`lineNotice.${notice}`)}
    </p>
  );
}
