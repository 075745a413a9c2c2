import CalendarPlus from 'lucide-react/icons/calendar-plus';
import { Button } from '@lobby/ui';
import { useTranslation } from '../../i18n/index.ts';
import { useGuestStore } from '../../state/store.ts';
import styles from './BookInstead.module.css';

/** "Book a time instead", on the closed screen and on a long wait (docs/guest-journey.md "Booking a time instead"). */
export function BookInstead({ reason }: { reason: 'closed' | 'waiting' }) {
  const { t } = useTranslation();
  const setBooking = useGuestStore((s) => s.setBooking);
  return (
    <div className={styles.offer} data-testid="book-instead">
      <p className={styles.text}>{t(reason === 'closed' ? 'booking.offerClosed' : 'booking.offerWaiting')}</p>
      <Button block icon={<CalendarPlus size={20} />} onClick={() => setBooking({ booked: null })} data-testid="book-instead-button">
        {t('booking.offer')}
      </Button>
    </div>
  );
}
