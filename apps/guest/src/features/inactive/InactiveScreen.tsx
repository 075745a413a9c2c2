import { useTranslation } from '../../i18n/index.ts';
import PowerOff from 'lucide-react/icons/power-off';
import ExternalLink from 'lucide-react/icons/external-link';
import { useGuestStore } from '../../state/store.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { buttonStyles } from '@lobby/ui';

/** The company's calling service is switched off (company.activated false). */
export function InactiveScreen() {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const webview = useGuestStore((s) => s.webview);
  return (
    <MessageScreen
      screen="inactive"
      icon={<PowerOff size={34} />}
      title={t('inactive.title')}
      body={<p>{t('inactive.body')}</p>}
      actions={
        company?.websiteUrl && !webview ? (
          <a className={`${buttonStyles.button} ${buttonStyles.secondary} ${buttonStyles.block}`} href={company.websiteUrl} rel="noopener">
            <ExternalLink size={18} aria-hidden="true" />
            {t('app.visitWebsite', { site: company.websiteTitle || company.name })}
          </a>
        ) : null
      }
    />
  );
}
