import { useEffect } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { useRecheck } from '../base/useRecheck.ts';
import { localTime } from '../../journey/checks.ts';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import { useGuestStore } from '../../state/store.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import { formatClock, timetableRows, weekdayName } from './timetable.ts';
import styles from './ScheduleScreen.module.css';
import { BookInstead } from '../booking/BookInstead.tsx';

/** Out of opening hours: the message and, unless hidden, the week's timetable with today marked. */
export function ScheduleScreen() {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  const message = useCompanyMessage('outOfHoursMsg');
  const recheck = useRecheck();
  // the page opens for calls by itself when the opening hour comes
  useEffect(() => {
    const id = setInterval(() => void recheck(), 60_000);
    return () => clearInterval(id);
  }, [recheck]);
  const today = localTime(new Date(), company?.schedule?.timezone || 'UTC').day;
  // Arabic-speaking countries start the week on Sunday (or Saturday); use Sunday there, Monday otherwise.
  const rows = timetableRows(company?.schedule, language === 'ar' ? 0 : 1);

  return (
    <MessageScreen screen="schedule" tone="info" icon={<CalendarClock size={34} />} title={t('schedule.title')} body={<p>{message}</p>}>
      {!company?.hideTimetable && company?.schedule?.weekly.length ? (
        <table className={styles.table} data-testid="timetable">
          <caption className={styles.caption}>
            {t('schedule.timetable')} <span className={styles.zone}>({company.schedule.timezone})</span>
          </caption>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">{t('schedule.day')}</th>
              <th scope="col">{t('schedule.hours')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.day} className={row.day === today ? styles.today : undefined} aria-current={row.day === today ? 'date' : undefined}>
                <th scope="row">
                  {weekdayName(row.day, language)}
                  {row.day === today ? <span className={styles.badge}>{t('schedule.today')}</span> : null}
                </th>
                <td>
                  {row.periods.length
                    ? row.periods
                        .map((p) => t('schedule.range', { from: formatClock(p.from, language), to: formatClock(p.to, language) }))
                        .join(', ')
                    : <span className={styles.closed}>{t('schedule.closed')}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {company?.appointmentBooking ? <BookInstead reason="closed" /> : null}
    </MessageScreen>
  );
}
