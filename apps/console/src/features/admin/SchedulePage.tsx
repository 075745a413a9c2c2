import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Plus from 'lucide-react/icons/plus';
import X from 'lucide-react/icons/x';
import Save from 'lucide-react/icons/save';
import { getSchedule, putSchedule, type Schedule } from '../../api/admin.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import { Button } from '@lobby/ui';

type Period = Schedule['weekly'][number];

const DEFAULT: Schedule = {
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  weekly: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '17:00' })),
  closedDays: [],
};

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

/** Weekday names in the UI language, 0 = Sunday (2023-01-01 was a Sunday). */
function weekdayNames(locale: string): string[] {
  const f = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  return [0, 1, 2, 3, 4, 5, 6].map((d) => f.format(new Date(Date.UTC(2023, 0, 1 + d))));
}

/** Opening hours: time zone, periods per weekday, closed days (holidays); or always open. */
export function SchedulePage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const loaded = useAsync(getSchedule);
  const [alwaysOpen, setAlwaysOpen] = useState(true);
  const [s, setS] = useState<Schedule>(DEFAULT);
  const [newDay, setNewDay] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const zones = useMemo(timeZones, []);
  const days = useMemo(() => weekdayNames(language), [language]);

  useEffect(() => {
    if (loaded.loading) return;
    setAlwaysOpen(loaded.data === null);
    if (loaded.data) setS({ ...loaded.data, closedDays: loaded.data.closedDays ?? [] });
  }, [loaded.data, loaded.loading]);

  const setPeriods = (day: number, periods: Period[]) =>
    setS((x) => ({ ...x, weekly: [...x.weekly.filter((p) => p.day !== day), ...periods].sort((a, b) => a.day - b.day || a.from.localeCompare(b.from)) }));

  function save() {
    setMessage(null);
    putSchedule(alwaysOpen ? null : s)
      .then(() => setMessage({ ok: true, text: t('schedule.saved') }))
      .catch((e: unknown) => setMessage({ ok: false, text: errorText(e) }));
  }

  // Monday first, as most weeks are read.
  const order = [1, 2, 3, 4, 5, 6, 0];
  return (
    <AdminLayout screen="admin-schedule">
      <div className={styles.headline}>
        <div>
          <h1>{t('schedule.title')}</h1>
          <p className={styles.lead}>{t('schedule.lead')}</p>
        </div>
        <div className={styles.actions}>
          {message ? (
            <span role="status" className={message.ok ? styles.success : styles.danger} data-testid="schedule-message">
              {message.text}
            </span>
          ) : null}
          <Button icon={<Save size={18} />} onClick={save} disabled={loaded.loading} data-testid="schedule-save">
            {t('common.save')}
          </Button>
        </div>
      </div>
      {loaded.error ? <p className={styles.error}>{loaded.error}</p> : null}
      <section className={styles.card}>
        <label className={styles.check}>
          {/* not before the saved hours are in: they would overwrite a choice made meanwhile */}
          <input
            type="checkbox"
            checked={alwaysOpen}
            disabled={loaded.loading}
            onChange={(e) => setAlwaysOpen(e.target.checked)}
            data-testid="schedule-always-open"
          />
          {t('schedule.alwaysOpen')}
        </label>
      </section>
      {alwaysOpen ? null : (
        <>
          <section className={styles.card} aria-labelledby="tz-h">
            <h2 id="tz-h">{t('schedule.timezone')}</h2>
            <input
              className={styles.input}
              style={{ maxInlineSize: 320 }}
              list="time-zones"
              dir="ltr"
              aria-labelledby="tz-h"
              value={s.timezone}
              onChange={(e) => setS({ ...s, timezone: e.target.value })}
              data-testid="schedule-timezone"
            />
            <datalist id="time-zones">
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </section>
          <section className={styles.card} aria-labelledby="weekly-h">
            <h2 id="weekly-h">{t('schedule.weekly')}</h2>
            <table className={styles.table}>
              <tbody>
                {order.map((day) => {
                  const periods = s.weekly.filter((p) => p.day === day);
                  return (
                    <tr key={day} data-testid="schedule-day" data-day={day}>
                      <th scope="row" style={{ inlineSize: 160 }}>
                        {days[day]}
                      </th>
                      <td>
                        <div className={styles.chips}>
                          {periods.length === 0 ? <span className={styles.hint}>{t('schedule.closed')}</span> : null}
                          {periods.map((p, i) => (
                            <span key={i} className={styles.chip}>
                              <input
                                type="time"
                                aria-label={t('schedule.from', { day: days[day] })}
                                value={p.from}
                                onChange={(e) => setPeriods(day, periods.map((q, j) => (j === i ? { ...q, from: e.target.value } : q)))}
                              />
                              –
                              <input
                                type="time"
                                aria-label={t('schedule.to', { day: days[day] })}
                                value={p.to}
                                onChange={(e) => setPeriods(day, periods.map((q, j) => (j === i ? { ...q, to: e.target.value } : q)))}
                              />
                              <button
                                type="button"
                                className={styles.smallButton}
                                style={{ minBlockSize: 28, paddingInline: 6, border: 0 }}
                                aria-label={t('schedule.removePeriod', { day: days[day] })}
                                onClick={() => setPeriods(day, periods.filter((_, j) => j !== i))}
                              >
                                <X size={14} aria-hidden="true" />
                              </button>
                            </span>
                          ))}
                          <button
                            type="button"
                            className={styles.smallButton}
                            aria-label={t('schedule.addPeriod', { day: days[day] })}
                            onClick={() => setPeriods(day, [...periods, { day, from: periods.at(-1)?.to ?? '09:00', to: '17:00' }])}
                          >
                            <Plus size={16} aria-hidden="true" />
                          </button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <section className={styles.card} aria-labelledby="closed-h">
            <h2 id="closed-h">{t('schedule.closedDays')}</h2>
            <p className={styles.hint}>{t('schedule.closedDaysHint')}</p>
            <div className={styles.chips} style={{ marginBlock: 10 }}>
              {(s.closedDays ?? []).map((d) => (
                <span key={d} className={styles.chip} data-testid="closed-day">
                  <span dir="ltr">{d}</span>
                  <button
                    type="button"
                    className={styles.smallButton}
                    style={{ minBlockSize: 28, paddingInline: 6, border: 0 }}
                    aria-label={t('schedule.removeClosedDay', { day: d })}
                    onClick={() => setS({ ...s, closedDays: (s.closedDays ?? []).filter((x) => x !== d) })}
                  >
                    <X size={14} aria-hidden="true" />
                  </button>
                </span>
              ))}
            </div>
            <div className={styles.actions}>
              <input type="date" className={styles.input} style={{ maxInlineSize: 200 }} aria-label={t('schedule.closedDay')} value={newDay} onChange={(e) => setNewDay(e.target.value)} />
              <button
                type="button"
                className={styles.smallButton}
                disabled={!newDay}
                onClick={() => {
                  setS({ ...s, closedDays: [...new Set([...(s.closedDays ?? []), newDay])].sort() });
                  setNewDay('');
                }}
              >
                <Plus size={16} aria-hidden="true" />
                {t('schedule.addClosedDay')}
              </button>
            </div>
          </section>
        </>
      )}
    </AdminLayout>
  );
}
