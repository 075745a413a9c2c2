import { useTranslation } from 'react-i18next';
import { Spinner } from '../base/Spinner.tsx';
import styles from './LoadingScreen.module.css';

/** Shown while the company details load. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className={styles.loading} data-screen="loading" role="status" aria-live="polite">
      <Spinner size={44} />
      <p className={styles.text}>{t('loading.title')}</p>
    </div>
  );
}
