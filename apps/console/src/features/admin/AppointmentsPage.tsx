import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import Copy from 'lucide-react/icons/copy';
import Trash from 'lucide-react/icons/trash-2';
import { createAppointment, deleteAppointment, listAppointments, listUsers, type Appointment } from '../../api/admin.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { hasRole } from './roles.ts';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import { Button } from '@lobby/ui';
import { PageHead, AdminTable } from './AdminParts.tsx';

/** `YYYY-MM-DDTHH:mm` in local time, one hour from now on the quarter hour (a datetime-local value). */
function defaultStart(): string {
  const d = new Date(Date.now() + 3600_000);
  d.setMinutes(Math.ceil(d.getMinutes() / 15) * 15, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function Row({ a, locale, onChanged, onError }: { a: Appointment; locale: string; onChanged: () => void; onError: (m: string) => void }) {
  const { t } = useTranslation('admin');
  const [copied, setCopied] = useState(false);
  const url = `${window.location.origin}${a.link}`;
  return (
    <tr data-testid="appointment-row" data-reference={a.reference}>
      <td>{new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(a.startsAt))}</td>
      <td>{a.agentName}</td>
      <td>{t('appointments.minutes', { count: a.durationMinutes })}</td>
      <td>
        {a.callType ? <span data-testid="appointment-booked">{t(a.callType === 'voice' ? 'appointments.bookedVoice' : 'appointments.bookedVideo')} · </span> : null}
        {a.note}
      </td>
      <td>
        <span className={styles.actions}>
          <a href={a.link} dir="ltr" data-testid="appointment-link" target="_blank" rel="noreferrer">
            {a.link}
          </a>
          <button
            type="button"
            className={styles.smallButton}
            aria-label={t('appointments.copy')}
            onClick={() => {
              void navigator.clipboard?.writeText(url).then(() => setCopied(true));
            }}
          >
            <Copy size={16} aria-hidden="true" />
            {copied ? t('appointments.copied') : null}
          </button>
          <button
            type="button"
            className={`${styles.smallButton} ${styles.danger}`}
            aria-label={t('appointments.cancel')}
            onClick={() => {
              if (!window.confirm(t('appointments.confirmCancel'))) return;
              void deleteAppointment(a.id)
                .then(onChanged)
                .catch((e: unknown) => onError(errorText(e)));
            }}
          >
            <Trash size={16} aria-hidden="true" />
          </button>
        </span>
      </td>
    </tr>
  );
}

/** Appointments: pick an agent and a time, get the guest link /appointment/{reference} that reaches only that agent. */
export function AppointmentsPage() {
  const { t } = useTranslation('admin');
  const user = useConsoleStore((s) => s.user);
  const language = useConsoleStore((s) => s.language);
  const canChoose = user ? hasRole(user.role, 'supervisor') : false;
  const data = useAsync(async () => {
    const [appointments, users] = await Promise.all([listAppointments(), canChoose ? listUsers() : Promise.resolve([])]);
    return { appointments, users };
  });
  const [agentId, setAgentId] = useState<number | ''>('');
  const [startsAt, setStartsAt] = useState(defaultStart);
  const [duration, setDuration] = useState(30);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Appointment | null>(null);

  function add(e: FormEvent) {
    e.preventDefault();
    const agent = canChoose ? agentId : user?.id;
    if (!agent) return;
    setError(null);
    createAppointment({ agentId: agent, startsAt: new Date(startsAt).toISOString(), durationMinutes: duration, note })
      .then((a) => {
        setCreated(a);
        setNote('');
        data.reload();
      })
      .catch((err: unknown) => setError(errorText(err)));
  }

  const d = data.data;
  return (
    <AdminLayout screen="appointments">
      <PageHead title={t('appointments.title')} lead={t('appointments.lead')} error={error ?? data.error} />
      <section className={styles.card} aria-labelledby="new-appt-h">
        <h2 id="new-appt-h">{t('appointments.addTitle')}</h2>
        <form onSubmit={add} className={styles.grid2}>
          {canChoose ? (
            <div className={styles.field}>
              <label className={styles.label} htmlFor="appt-agent">
                {t('appointments.agent')}
              </label>
              <select id="appt-agent" className={styles.select} required value={agentId} onChange={(e) => setAgentId(e.target.value ? Number(e.target.value) : '')} data-testid="appointment-agent">
                <option value="">{t('appointments.chooseAgent')}</option>
                {d?.users.map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div className={styles.field}>
            <label className={styles.label} htmlFor="appt-start">
              {t('appointments.time')}
            </label>
            <input id="appt-start" className={styles.input} type="datetime-local" required value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="appt-duration">
              {t('appointments.duration')}
            </label>
            <select id="appt-duration" className={styles.select} value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
              {[15, 30, 45, 60, 90].map((m) => (
                <option key={m} value={m}>
                  {t('appointments.minutes', { count: m })}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="appt-note">
              {t('appointments.note')}
            </label>
            <input id="appt-note" className={styles.input} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          <div className={`${styles.actions} ${styles.formEnd}`}>
            <Button type="submit" icon={<CalendarPlus size={18} />} data-testid="appointment-create">
              {t('appointments.add')}
            </Button>
          </div>
        </form>
        {created ? (
          <p role="status" className={styles.success} style={{ marginBlockStart: 12 }} data-testid="appointment-created">
            {t('appointments.created')}{' '}
            <a href={created.link} dir="ltr">
              {`${window.location.origin}${created.link}`}
            </a>
          </p>
        ) : null}
      </section>
      <section className={styles.card} aria-labelledby="appts-h">
        <h2 id="appts-h">{t('appointments.listTitle')}</h2>
        {d && d.appointments.length === 0 ? <p className={styles.empty}>{t('appointments.empty')}</p> : null}
        {d && d.appointments.length > 0 ? (
          <AdminTable columns={[t('appointments.time'), t('appointments.agent'), t('appointments.duration'), t('appointments.note'), t('appointments.link')]}>
              {d.appointments.map((a) => (
                <Row key={a.id} a={a} locale={language} onChanged={data.reload} onError={setError} />
              ))}
          </AdminTable>
        ) : null}
      </section>
    </AdminLayout>
  );
}
