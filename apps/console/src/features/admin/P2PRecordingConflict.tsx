import { useTranslation } from 'react-i18next';
import styles from './Admin.module.css';

/** the id of the conflict's message on a tab: the fields it names point at it (aria-describedby) */
export const conflictMessageId = (tab: 'general' | 'behaviour') => `p2p-recording-conflict-${tab}`;

/**
 * "Peer to peer" chosen while "Record calls" is on (settingsFields.ts p2pRecordingConflict): said in the
 * labels the admin sees, on the tab where it shows, with the two ways out.
 */
export function P2PRecordingConflict({ tab, useP2P, keepMediaServer }: { tab: 'general' | 'behaviour'; useP2P: () => void; keepMediaServer: () => void }) {
  const { t } = useTranslation('admin');
  const names = {
    p2p: t('settings.option.p2p'),
    record: t('settings.field.recordCalls'),
    tab: t(`settings.group.${tab === 'general' ? 'behaviour' : 'general'}`),
  };
  return (
    <div className={styles.conflict} role="alert" data-testid="p2p-recording-conflict">
      <p id={conflictMessageId(tab)}>{t(`settings.p2pConflict.${tab}`, names)}</p>
      <span className={styles.rowActions}>
        <button type="button" className={styles.smallButton} onClick={useP2P} data-testid="p2p-conflict-use-p2p">
          {t('settings.p2pConflict.useP2P')}
        </button>
        <button type="button" className={styles.smallButton} onClick={keepMediaServer} data-testid="p2p-conflict-keep-media-server">
          {t('settings.p2pConflict.keepMediaServer')}
        </button>
      </span>
    </div>
  );
}
