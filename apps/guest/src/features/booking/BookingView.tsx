import { useEffect, useMemo, useState, type FormEvent } from 'react';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import { Button, Spinner } from '@lobby/ui';
import type { BookingCallType, BookingSlots, GuestBooking } from '@lobby/contracts';
import { useTranslation } from '../../i18n/index.ts';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { fetchSlots } from '../../api/booking.ts';
import { calendarFile } from './calendarFile.ts';
import styles from './BookingView.module.css';
import fieldStyles from '../forms/FormFields.module.css';

/** The guest's own time zone: every time on this page is shown in it. */
const ownZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const dayKey = (iso: string) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/**
 * Booking a time instead of waiting (docs/guest-journey.md "Booking a time instead"): a day, a time of it,
 * video or voice, the guest's name and the welcome form's contact fields; then the link, a calendar file
 * and the time in the guest's own time zone.
 */
export function BookingView() {
  const booking = useGuestStore((s) => s.booking);
  return booking?.booked ? <Booked booked={booking.booked} /> : <BookingForm />;
}

function BookingForm() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  const setBooking = useGuestStore((s) => s.setBooking);
  const [slots, setSlots] = useState<BookingSlots | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [day, setDay] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [callType, setCallType] = useState<BookingCallType>(company?.callType === 'voice' ? 'voice' : 'video');
  const [name, setName] = useState('');
  const [contact, setContact] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const contactFields = (company?.forms?.welcome?.fields ?? []).filter((f) => f.type === 'email' || f.type === 'tel');

  const load = async () => {
    setLoadFailed(false);
    try {
      const session = await actions.session();
      if (!session) throw new Error('no session');
      const answer = await fetchSlots(session);
      setSlots(answer);
      const first = answer.slots[0]?.startsAt;
      setDay((d) => d || (first ? dayKey(first) : ''));
    } catch {
      setLoadFailed(true);
    }
  };
  useEffect(() => {
    void load();
    // load once when the view opens; a taken time loads again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const days = useMemo(() => {
    const byDay = new Map<string, string[]>();
    for (const s of slots?.slots ?? []) byDay.set(dayKey(s.startsAt), [...(byDay.get(dayKey(s.startsAt)) ?? []), s.startsAt]);
    return byDay;
  }, [slots]);
  const dayLabel = (key: string) =>
    new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${key}T12:00:00`));
  const timeLabel = (iso: string) => new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!startsAt) return setError(t('booking.chooseTime'));
    setSending(true);
    setError(null);
    try {
      const booked = await actions.book({ startsAt, callType, name, contact });
      setBooking({ booked });
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 409) {
        setError(t('booking.taken'));
        setStartsAt('');
        void load();
      } else setError(status === 400 ? (err as Error).message : t('booking.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className={styles.card} data-screen="booking" aria-labelledby="booking-title">
      <h1 id="booking-title" className={styles.title}>
        {t('booking.title')}
      </h1>
      <p className={styles.lead}>{t('booking.lead')}</p>
      {loadFailed ? (
        <div className={styles.error} role="alert">
          {t('booking.loadFailed')}{' '}
          <Button variant="secondary" onClick={() => void load()}>
            {t('booking.retry')}
          </Button>
        </div>
      ) : !slots ? (
        <p className={styles.lead} role="status">
          <Spinner size={28} /> {t('booking.loading')}
        </p>
      ) : slots.slots.length === 0 ? (
        <p className={styles.empty} data-testid="booking-empty">
          {t('booking.noSlots')}
        </p>
      ) : (
        <form className={`${fieldStyles.fields} ${styles.form}`} onSubmit={(e) => void submit(e)} noValidate>
          <p className={styles.zone}>{t('booking.yourZone', { zone: ownZone() })}</p>
          <label className={fieldStyles.field}>
            {t('booking.day')}
            <select
              value={day}
              onChange={(e) => {
                setDay(e.target.value);
                setStartsAt('');
              }}
              data-testid="booking-day"
            >
              {[...days.keys()].map((key) => (
                <option key={key} value={key}>
                  {dayLabel(key)}
                </option>
              ))}
            </select>
          </label>
          <Pills
            legend={t('booking.time')}
            name="booking-time"
            value={startsAt}
            onChange={setStartsAt}
            options={(days.get(day) ?? []).map((iso) => ({ value: iso, label: timeLabel(iso) }))}
          />
          <Pills
            legend={t('booking.callType')}
            name="booking-call-type"
            value={callType}
            onChange={(v) => setCallType(v === 'voice' ? 'voice' : 'video')}
            options={[
              { value: 'video', label: t('booking.video') },
              { value: 'voice', label: t('booking.voice') },
            ]}
          />
          <label className={fieldStyles.field}>
            {t('booking.name')}
            <input required autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          {contactFields.map((f) => (
            <label key={f.key} className={fieldStyles.field}>
              <span>
                {(language === 'ar' && f.label_ar) || f.label}
                {f.required ? <span className={fieldStyles.required}> {t('booking.required')}</span> : null}
              </span>
              <input
                type={f.type}
                dir="ltr"
                required={f.required}
                autoComplete={f.type === 'email' ? 'email' : 'tel'}
                maxLength={200}
                value={contact[f.key] ?? ''}
                onChange={(e) => setContact((c) => ({ ...c, [f.key]: e.target.value }))}
              />
            </label>
          ))}
          {error ? (
            <p className={styles.error} role="alert" data-testid="booking-error">
              {error}
            </p>
          ) : null}
          <Button type="submit" block icon={<CalendarCheck size={20} />} disabled={sending} data-testid="booking-submit">
            {t('booking.submit')}
          </Button>
        </form>
      )}
      <Button variant="secondary" block icon={<ArrowLeft size={20} className={styles.back} />} onClick={() => setBooking(null)} data-testid="booking-back">
        {t('booking.back')}
      </Button>
    </section>
  );
}

/** A group of radio buttons drawn as pills (arrow keys move within it, as for any radio group). */
function Pills(p: { legend: string; name: string; value: string; onChange: (value: string) => void; options: Array<{ value: string; label: string }> }) {
  return (
    <fieldset className={styles.group}>
      <legend>{p.legend}</legend>
      <div className={styles.times}>
        {p.options.map((o) => (
          <label key={o.value} className={styles.choice}>
            <input type="radio" name={p.name} value={o.value} checked={p.value === o.value} onChange={() => p.onChange(o.value)} />
            {/* in the page's direction: "12:00 م" reads right in Arabic, "12:00 PM" in English */}
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Booked({ booked }: { booked: GuestBooking }) {
  const { t } = useTranslation();
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  const setBooking = useGuestStore((s) => s.setBooking);
  const url = `${window.location.origin}${booked.link}`;
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(booked.startsAt));
  const ics = calendarFile({
    reference: booked.reference,
    startsAt: booked.startsAt,
    durationMinutes: booked.durationMinutes,
    url,
    title: t('booking.calendarTitle', { company: company?.name ?? '' }),
    host: window.location.host,
  });
  return (
    <section className={styles.card} data-screen="booked" aria-labelledby="booked-title">
      <div className={styles.icon} aria-hidden="true">
        <CalendarCheck size={34} />
      </div>
      <h1 id="booked-title" className={styles.title}>
        {t('booking.doneTitle')}
      </h1>
      <p className={styles.when} data-testid="booked-time" data-starts-at={booked.startsAt}>
        {when}
      </p>
      <p className={styles.zone}>{t('booking.yourZone', { zone: ownZone() })}</p>
      <p className={styles.lead}>{t(booked.callType === 'voice' ? 'booking.doneVoice' : 'booking.doneVideo')}</p>
      <a className={styles.link} href={booked.link} dir="ltr" data-testid="booked-link">
        {url}
      </a>
      <a
        className={styles.calendar}
        href={`data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`}
        download={`appointment-${booked.reference}.ics`}
        data-testid="booked-calendar"
      >
        <CalendarPlus size={20} aria-hidden="true" /> {t('booking.addToCalendar')}
      </a>
      <Button variant="secondary" block onClick={() => setBooking(null)} data-testid="booked-done">
        {t('booking.close')}
      </Button>
    </section>
  );
}
