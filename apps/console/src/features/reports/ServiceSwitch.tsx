import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceFilter } from '@lobby/contracts';
import styles from './ServiceSwitch.module.css';

const SERVICES: ServiceFilter[] = ['all', 'talk', 'widget'];

/**
 * The service labels (docs/guest-journey.md) as a filter of the console's call lists: all services, the call
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
