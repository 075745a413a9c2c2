import { useTranslation } from '../../i18n/index.ts';
import { useGuestStoreMaybe } from '../../state/store.ts';
import styles from './LoadingScreen.module.css';
import { Spinner } from '@lobby/ui';

/** Shown while the company details load, and while the gate checks the location or the form. */
export function LoadingScreen() {
  const { t } = useTranslation();
  const { t: tj } = useTranslation('journey');
  const checking = useGuestStoreMaybe((s) => s.checking);
  return (
    <div className={styles.loading} data-screen="loading" data-checking={checking ?? undefined} role="status" aria-live="polite">
      <Spinner size={44} />
      <p className={styles.text}>{checking ? tj(`checking.${checking}`) : t('loading.title')}</p>
    </div>
  );
}
