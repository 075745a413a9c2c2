import { useCallback } from 'react';
import { saveLanguage } from '../../i18n/index.ts';
import { useConsoleStore, type Language } from '../../state/store.ts';

/** Switch language and remember the choice. */
export function useLanguageChange(): (language: Language) => void {
  const setLanguage = useConsoleStore((s) => s.setLanguage);
  return useCallback(
    (language: Language) => {
      saveLanguage(language);
      setLanguage(language);
    },
    [setLanguage],
  );
}
