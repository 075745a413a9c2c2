import { useTranslation } from 'react-i18next';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import styles from './routing.module.css';

/** Marks a queue entry that is an appointment call (booked with this agent; nobody else sees it). */
export function AppointmentBadge({ appointmentID }: { appointmentID?: string | undefined }) {
  const { t } = useTranslation('routing');
  if (!appointmentID) return null;
  return (
    <span className={styles.badge} title={t('appointmentTitle')} data-testid="appointment-badge">
      <CalendarCheck size={13} aria-hidden="true" />
      <span>{t('appointment')}</span>
    </span>
  );
}
