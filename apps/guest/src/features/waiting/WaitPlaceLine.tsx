import type { WaitEstimateWords } from '@lobby/contracts';
import { useTranslation } from '../../i18n/index.ts';
import { useGuestStore } from '../../state/store.ts';
import styles from './WaitingScreen.module.css';

/**
 * "You are 3rd in line · about 4 minutes" (docs/guest-journey.md "Place in the queue and estimate").
 * A polite live region: screen readers hear it when the words change (a step in the queue, a new
 * estimate), never on the server's repeated answers, whose words stay the same.
 */
export function WaitPlaceLine() {
  const { t, i18n } = useTranslation();
  const place = useGuestStore((s) => s.waitPlace);
  const position = place?.position ?? null;
  const estimate = place?.estimate ?? null;

  const placeText =
    position === null
      ? null
      : position === 1
        ? t('waiting.placeNext')
        : t('waiting.place', {
            ordinal: t(
              `waiting.ordinal.${new Intl.PluralRules(i18n.language, { type: 'ordinal' }).select(position)}` as 'waiting.ordinal.other',
              { n: position },
            ),
          });
  const words = estimate === null ? null : estimateKey(estimate);
  const estimateText = words === null ? null : t(words[0], words[1]);
  // each part kept on one line: a phone wraps between them, never inside "about 9 minutes"
  const parts =
    placeText && estimateText
      ? [placeText, estimateText]
      : placeText
        ? [placeText]
        : estimateText
          ? [t('waiting.estimateAlone', { estimate: estimateText })]
          : [];

  return (
    <p
      className={styles.place}
      role="status"
      aria-live="polite"
      data-testid="wait-place"
      data-position={position ?? ''}
      data-estimate={estimate?.kind ?? ''}
    >
      {parts.map((part, i) => (
        <span key={i} className={styles.placePart}>
          {i > 0 ? ' · ' : null}
          {part}
        </span>
      ))}
    </p>
  );
}

/** The string of an estimate's words and its count. */
function estimateKey(estimate: WaitEstimateWords) {
  switch (estimate.kind) {
    case 'underMinute':
      return ['waiting.estimate.underMinute', {}] as const;
    case 'minutes':
      return ['waiting.estimate.minutes', { count: estimate.minutes }] as const;
    case 'fewMinutes':
      return ['waiting.estimate.fewMinutes', {}] as const;
    case 'longWait':
      return ['waiting.estimate.longWait', { count: estimate.atLeastMinutes }] as const;
  }
}
