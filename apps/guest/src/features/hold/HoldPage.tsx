import { useTranslation } from '../../i18n/index.ts';
import Pause from 'lucide-react/icons/pause';
import { useGuestStore } from '../../state/store.ts';
import { companyMessage } from '../../i18n/companyMessage.ts';
import styles from './HoldPage.module.css';

/** Images only from http(s) URLs (the company's settings); anything else is not shown. */
function safeImage(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The hold page (holdPageText, holdPageImage, videoOnHoldText / audioOnHoldText). */
export function HoldPage({ video }: { video: boolean }) {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  const image = safeImage(company?.holdPageImage);
  return (
    <div className={styles.hold} data-testid="hold-page" role="status" aria-live="polite">
      {image ? (
        <img className={styles.image} src={image} alt="" />
      ) : (
        <span className={styles.icon} aria-hidden="true">
          <Pause size={40} />
        </span>
      )}
      <h2 className={styles.title} data-testid="hold-text" dir="auto">
        {companyMessage(company, 'holdPageText', language)}
      </h2>
      <p className={styles.body} data-testid="hold-kind-text" dir="auto">
        {companyMessage(company, video ? 'videoOnHoldText' : 'audioOnHoldText', language)}
      </p>
      <p className={styles.hint}>{t('ongoing.holdHint')}</p>
    </div>
  );
}
