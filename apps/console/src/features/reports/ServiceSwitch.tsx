import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceFilter } from '@lobby/contracts';
import styles from './ServiceSwitch.module.css';

const SERVICES: ServiceFilter[] = ['all', 'talk', 'widget'];

/**
 * SPEC.md §2's service labels as a filter of the console's lists of calls: all services, the full call
 * page (talk) or the website widget. Radio buttons, so the arrow keys move between them.
 */
export function ServiceSwitch({ value, onChange }: { value: ServiceFilter; onChange: (service: ServiceFilter) => void }) {
  const { t } = useTranslation('admin');
  const name = useId();
  return (
    <fieldset className={styles.switch} data-testid="service-switch">
      <legend className={styles.legend}>{t('service.label')}</legend>
      <div className={styles.options}>
        {SERVICES.map((service) => (
          <label key={service} className={styles.option} data-checked={value === service}>
            <input
              type="radio"
              name={name}
              value={service}
              checked={value === service}
              onChange={() => onChange(service)}
              data-testid={`service-${service}`}
            />
            {t(`service.${service}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
