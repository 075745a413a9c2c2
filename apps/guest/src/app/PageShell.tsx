import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/index.ts';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { useGuestStore, type Language } from '../state/store.ts';
import { isMultilingual, saveLanguage } from '../i18n/language.ts';
import styles from './PageShell.module.css';
import { LanguageSwitch, Avatar } from '@lobby/ui';
import { languageFixedBySite } from '../features/widget/bridge.ts';

/**
 * The page around every screen: company background, header (brand, language switch), footer.
 * `brand` shows the company's name in the header whatever the screen (pages outside the journey).
 */
export function PageShell({ children, brand = false }: { children: ReactNode; brand?: boolean }) {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const screen = useGuestStore((s) => s.screen);
  const phase = useGuestStore((s) => s.phase);
  const language = useGuestStore((s) => s.language);
  const webview = useGuestStore((s) => s.webview);
  const setLanguage = useGuestStore((s) => s.setLanguage);
  const ready = phase === 'ready' && company !== null;
  const immersive = ready && screen === 'ongoing';
  // The selection card shows the brand large; elsewhere the header carries it.
  const showBrand = ready && (brand || screen !== 'selection');
  const changeLanguage = (next: Language) => {
    saveLanguage(next);
    setLanguage(next);
  };

  return (
    <div className={styles.page} data-layout={immersive ? 'immersive' : 'card'} data-webview={webview || undefined}>
      <header className={styles.header}>
        <div className={styles.brand}>
          {showBrand ? (
            <>
              <Avatar name={company.name} imageUrl={company.logoImageUrl} size={36} />
              <span className={styles.name}>{company.name}</span>
            </>
          ) : null}
        </div>
        {ready && isMultilingual(company) && !languageFixedBySite() ? <LanguageSwitch value={language} onChange={changeLanguage} /> : null}
      </header>
      <main id="main" className={styles.main}>
        {children}
      </main>
      {!webview ? (
        <footer className={styles.footer}>
          {company?.poweredByLogo ? (
            <img src={company.poweredByLogo} alt={t('app.poweredBy')} className={styles.poweredLogo} />
          ) : (
            <span className={styles.powered}>
              <ShieldCheck size={14} aria-hidden="true" />
              {t('app.secureCall')} · {t('app.poweredBy')}
            </span>
          )}
        </footer>
      ) : null}
    </div>
  );
}
