import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import NotebookPen from 'lucide-react/icons/notebook-pen';
import { putCallNote } from '../../api/calls.ts';
import { ApiError } from '@lobby/call/http';
import { useConsoleStore } from '../../state/store.ts';
import styles from './WrapUpNote.module.css';
import { Button } from '@lobby/ui';

/**
 * The note after the call (wrap-up): once an answered call ends, the agent may write what was agreed.
 * It is stored on the call's report (PUT /api/console/calls/{callId}/note) and shown to supervisors and
 * admins with the company's latest calls (Reports).
 */
export function WrapUpNote() {
  const { t } = useTranslation();
  const wrapUp = useConsoleStore((s) => s.wrapUp);
  const setWrapUp = useConsoleStore((s) => s.setWrapUp);
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [savedFor, setSavedFor] = useState<string | null>(null);
  const fieldId = useId();
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setNote('');
    setError(null);
    if (wrapUp) field.current?.focus();
  }, [wrapUp]);

  if (!wrapUp) {
    return savedFor ? (
      <p className={styles.saved} role="status" data-testid="wrap-up-saved">
        {t('wrapUp.saved', { name: savedFor })}
      </p>
    ) : null;
  }
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await putCallNote(wrapUp.callId, note);
      setSavedFor(wrapUp.guestName);
      setWrapUp(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('wrapUp.failed'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className={styles.wrapUp}
      data-testid="wrap-up"
      data-call-id={wrapUp.callId}
      aria-labelledby={`${fieldId}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id={`${fieldId}-title`} className={styles.title}>
        <NotebookPen size={16} aria-hidden="true" />
        {t('wrapUp.title')}
      </h3>
      <label htmlFor={fieldId} className={styles.label}>
        {t('wrapUp.label', { name: wrapUp.guestName })}
      </label>
      <textarea
        id={fieldId}
        ref={field}
        className={styles.field}
        rows={3}
        maxLength={4000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        data-testid="wrap-up-note"
      />
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={saving || !note.trim()} data-testid="wrap-up-save">
          {saving ? t('wrapUp.saving') : t('wrapUp.save')}
        </Button>
        <Button variant="ghost" onClick={() => setWrapUp(null)} data-testid="wrap-up-skip">
          {t('wrapUp.skip')}
        </Button>
      </div>
    </form>
  );
}
