import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import * as Switch from '@radix-ui/react-switch';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import styles from './AvailabilitySwitch.module.css';

/** Available ⇄ away, a Radix switch with a visible state label. */
export function AvailabilitySwitch() {
  const { t } = useTranslation();
  const actions = useAgentActions();
  const availability = useConsoleStore((s) => s.availability);
  const id = useId();
  const available = availability === 'available';
  return (
    <div className={styles.wrap} data-availability={availability}>
      <label htmlFor={id} className={styles.label}>
        <span className={styles.dot} aria-hidden="true" />
        <span className="visually-hidden">{t('header.availability')}: </span>
        {available ? t('header.available') : t('header.away')}
      </label>
      <Switch.Root
        id={id}
        className={styles.root}
        checked={available}
        onCheckedChange={(checked) => void actions.setAvailability(checked ? 'available' : 'away')}
        data-testid="availability-switch"
      >
        <Switch.Thumb className={styles.thumb} />
      </Switch.Root>
    </div>
  );
}
