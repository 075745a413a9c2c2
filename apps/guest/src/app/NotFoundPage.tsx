import { useTranslation } from 'react-i18next';
import SearchX from 'lucide-react/icons/search-x';
import { MessageScreen } from '../features/base/MessageScreen.tsx';
import buttonStyles from '../features/base/Button.module.css';
import { PageShell } from './PageShell.tsx';

/** Any route other than the call page. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageShell>
      <MessageScreen
        screen="not-found"
        icon={<SearchX size={34} />}
        title={t('notFound.title')}
        body={<p>{t('notFound.body')}</p>}
        actions={
          <a href="/" className={`${buttonStyles.button} ${buttonStyles.primary} ${buttonStyles.block}`}>
            {t('notFound.home')}
          </a>
        }
      />
    </PageShell>
  );
}
