import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import Star from 'lucide-react/icons/star';
import { Face } from '../forms/faces.tsx';
import CircleCheck from 'lucide-react/icons/circle-check';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { useRecheck } from '../base/useRecheck.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import { FormFields } from '../forms/FormFields.tsx';
import type { FormAnswers } from '../../api/guest.ts';
import styles from './RatingScreen.module.css';
import { Button } from '@lobby/ui';

const SCORES = [1, 2, 3, 4, 5] as const;

/** After the call: a 1–5 rating (stars or faces) and an optional comment, then a thank-you. */
export function RatingScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const recheck = useRecheck();
  const company = useGuestStore((s) => s.company);
  const title = useCompanyMessage('ratingPageMsg');
  const submitText = useCompanyMessage('ratingSubmitMsg');
  const thanks = useCompanyMessage('ratingThanksMsg');
  const [score, setScore] = useState(0);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'form' | 'sending' | 'failed' | 'done'>('form');
  const emojis = company?.ratingStyle === 'emojies';
  const language = useGuestStore((s) => s.language);
  // advanceRating with a rating form: the company's questions replace the single score
  const ratingForm = company?.advanceRating && company.ratingForm ? (company.forms?.rating ?? null) : null;
  const [answers, setAnswers] = useState<FormAnswers>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!score && !ratingForm) return;
    setState('sending');
    try {
      await actions.submitRating({ score, comment: comment.trim(), ...(ratingForm ? { answers } : {}) });
      setState('done');
    } catch {
      // not stored: say so and keep what the guest entered, so that sending again is one press
      setState('failed');
    }
  };

  if (state === 'done') {
    return (
      <MessageScreen
        screen="rating"
        tone="success"
        icon={<CircleCheck size={36} />}
        title={thanks}
        actions={
          <Button block variant="secondary" icon={<RotateCcw size={20} />} onClick={() => void Promise.resolve(actions.callAgain()).then(recheck)} data-testid="call-again-button">
            {t('rating.callAgain')}
          </Button>
        }
      />
    );
  }

  return (
    <MessageScreen screen="rating" imageUrl={company?.ratingPageImage} icon={<Star size={34} />} tone="info" title={title}>
      <form className={styles.form} onSubmit={(e) => void submit(e)} data-rating-style={ratingForm ? 'form' : emojis ? 'emojies' : 'stars'}>
        {ratingForm ? (
          <FormFields fields={ratingForm.fields} language={language} answers={answers} onChange={(key, value) => setAnswers((a) => ({ ...a, [key]: value }))} />
        ) : (
        <fieldset className={styles.scale}>
          <legend className="visually-hidden">{t('rating.legend')}</legend>
          <div className={styles.options} data-style={emojis ? 'emojies' : 'stars'}>
            {SCORES.map((value) => (
              <label key={value} className={styles.option} data-active={value <= score} data-testid="rating-option">
                <input
                  type="radio"
                  name="rating"
                  value={value}
                  className={styles.radio}
                  checked={score === value}
                  onChange={() => setScore(value)}
                />
                <span className="visually-hidden">{emojis ? t(`rating.emoji${value}`) : t('rating.star', { count: value })}</span>
                {emojis ? (
                  <span className={styles.emoji} aria-hidden="true" data-selected={score === value}>
                    <Face score={value} />
                  </span>
                ) : (
                  <Star className={styles.star} size={40} aria-hidden="true" />
                )}
              </label>
            ))}
          </div>
          <p className={styles.scoreText} aria-hidden="true">
            {score ? (emojis ? t(`rating.emoji${score}` as 'rating.emoji1') : t('rating.star', { count: score })) : '\u00a0'}
          </p>
        </fieldset>
        )}
        {!ratingForm ? (
          <label className={styles.comment}>
            <span className={styles.commentLabel}>{t('rating.comment')}</span>
            <textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={1000} />
          </label>
        ) : null}
        {state === 'failed' ? (
          <p role="alert" className={styles.error} data-testid="rating-send-failed">
            {t('rating.sendFailed')}
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button type="submit" block disabled={(!score && !ratingForm) || state === 'sending'} data-testid="rating-submit-button">
            {state === 'failed' ? t('rating.retry') : submitText}
          </Button>
          <Button variant="ghost" block onClick={() => setState('done')} data-testid="rating-skip-button">
            {t('rating.skip')}
          </Button>
        </div>
      </form>
    </MessageScreen>
  );
}
