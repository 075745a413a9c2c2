import { useEffect, useState, type FormEvent } from 'react';
import { onWidgetPrefill, prefilledAnswers } from '../widget/bridge.ts';
import { useTranslation } from '../../i18n/index.ts';
import CircleAlert from 'lucide-react/icons/circle-alert';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import type { FormAnswers } from '../../api/guest.ts';
import { FormFields } from '../forms/FormFields.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import styles from './SelectionScreen.module.css';
import { Button } from '@lobby/ui';

/** The company's welcome form (welcomeForm on, get-submission says required); then the call buttons. */
export function WelcomeForm() {
  const { t } = useTranslation('journey');
  const actions = useCallActions();
  const form = useGuestStore((s) => s.company?.forms?.welcome ?? null);
  const language = useGuestStore((s) => s.language);
  const customTitle = useCompanyMessage('welcomeFormTitle');
  // a website that embeds the widget may pre-fill the guest's name and email
  const [answers, setAnswers] = useState<FormAnswers>(() => (form ? prefilledAnswers(form.fields) : {}));
  const [state, setState] = useState<'idle' | 'sending' | 'failed'>('idle');
  // …also when the pre-fill arrives after the form is shown (even between the first render and this
  // effect); never over what the guest typed
  useEffect(() => {
    if (!form) return undefined;
    const fill = () =>
      setAnswers((current) => {
        let next = current;
        for (const [key, value] of Object.entries(prefilledAnswers(form.fields))) {
          if (current[key] === undefined || current[key] === '') next = { ...next, [key]: value };
        }
        return next;
      });
    fill();
    return onWidgetPrefill(fill);
  }, [form]);
  if (!form) return null;
  const title = customTitle || (language === 'ar' && form.title_ar) || form.title || t('form.defaultTitle');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState('sending');
    try {
      await actions.submitWelcomeForm(form.id, answers);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <form
      className={styles.welcomeForm}
      onSubmit={(e) => void submit(e)}
      data-testid="welcome-form"
      aria-labelledby="welcome-form-title"
    >
      <h2 id="welcome-form-title" className={styles.legend}>
        {title}
      </h2>
      <FormFields
        fields={form.fields}
        language={language}
        answers={answers}
        onChange={(key, value) => setAnswers((a) => ({ ...a, [key]: value }))}
      />
      {state === 'failed' ? (
        <p className={styles.missing} role="alert">
          <CircleAlert size={16} aria-hidden="true" />
          {t('form.failed')}
        </p>
      ) : null}
      <Button type="submit" size="lg" block disabled={state === 'sending'} data-testid="welcome-form-submit">
        {state === 'sending' ? t('form.sending') : t('form.submit')}
      </Button>
    </form>
  );
}
