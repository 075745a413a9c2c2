import { useEffect } from 'react';
import { useTranslation } from '../i18n/index.ts';
import SearchX from 'lucide-react/icons/search-x';
import { MessageScreen } from '../features/base/MessageScreen.tsx';
import { ensureLanguage } from '../i18n/index.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { PageShell } from './PageShell.tsx';
import { useAppServices } from '../state/services.ts';
import { useGuestStoreApi } from '../state/store.ts';
import { buttonStyles } from '@lobby/ui';

/**
 * Any route other than the call page (the server answers such a page with this app and status 404).
 * It loads the company details like the call page, so it reads in the company's language and look.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const store = useGuestStoreApi();
  const { loadCompany } = useAppServices();

  useEffect(() => {
    if (store.getState().company) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const company = await loadCompany(controller.signal);
        const language = resolveLanguage(company);
        await ensureLanguage(language).catch(() => undefined);
        if (controller.signal.aborted) return;
        store.getState().setLanguage(language);
        store.getState().setCompany(company);
      } catch {
        // the page still says what to do, in the default look
      }
    })();
    return () => controller.abort();
  }, [store, loadCompany]);

  return (
    <PageShell brand>
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
