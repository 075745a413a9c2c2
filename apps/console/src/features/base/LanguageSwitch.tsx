import { useTranslation } from 'react-i18next';
import Languages from 'lucide-react/icons/languages';
import type { Language } from '../../app/store.ts';
import styles from './LanguageSwitch.module.css';

const LANGUAGES: Language[] = ['en', 'ar'];

/** English / العربية segmented switch. Each option is labelled in its own language. */
export function LanguageSwitch({ value, onChange }: { value: Language; onChange: (language: Language) => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.switch} role="group" aria-label={t('language.label')} data-testid="language-switch">
      <Languages size={18} aria-hidden="true" className={styles.glyph} />
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className={styles.option}
          aria-pressed={value === language}
          onClick={() => onChange(language)}
          data-language={language}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
