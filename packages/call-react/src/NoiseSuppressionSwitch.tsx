import { useId } from 'react';
import { useNoiseSuppression, type NoiseSuppressionEngine } from './noiseSuppression.ts';
import styles from './NoiseSuppressionSwitch.module.css';

/**
 * The noise-suppression switch of both apps' device panels (docs/architecture.md "Noise suppression"):
 * a checkbox with the switch role, its label and a hint; the app gives the words, its storage key and
 * its default (agents on, guests off).
 */
export function NoiseSuppressionSwitch({ engine, storageKey, byDefault, label, hint, testId }: {
  engine: NoiseSuppressionEngine | null;
  storageKey: string;
  byDefault: boolean;
  label: string;
  hint: string;
  testId: string;
}) {
  const [on, setOn] = useNoiseSuppression(engine, storageKey, byDefault);
  const id = useId();
  return (
    <div className={styles.switch}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={on}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setOn(e.target.checked)}
        data-testid={testId}
      />
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <span id={`${id}-hint`} className={styles.hint}>
        {hint}
      </span>
    </div>
  );
}
