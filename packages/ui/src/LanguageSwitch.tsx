import { useTranslation } from 'react-i18next';
import { UI_NAMESPACE } from './strings.ts';
import Languages from 'lucide-react/icons/languages';
import styles from './LanguageSwitch.module.css';

/** The languages both apps offer: English, and Arabic right to left. */
export type Language = 'en' | 'ar';

const LANGUAGES: Language[] = ['en', 'ar'];

/**
 * English / العربية segmented switch. Each option is labelled in its own language; the labels come from
 * this package's `language.label`, `language.en` and `language.ar` strings (namespace `ui`). `tone` picks the look: over the
 * company's background (guest) or on a light surface (console).
 */
export function LanguageSwitch({
  value,
  onChange,
  tone = 'onImage',
}: {
  value: Language;
  onChange: (language: Language) => void;
  tone?: 'onImage' | 'onSurface';
}) {
  const { t: typed } = useTranslation(UI_NAMESPACE);
  const t = typed as unknown as (key: string) => string;
  return (
    <div className={styles.switch} data-tone={tone} role="group" aria-label={t('language.label')} data-testid="language-switch">
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
