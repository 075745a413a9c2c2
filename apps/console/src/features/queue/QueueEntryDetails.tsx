import { memo, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ChevronDown from 'lucide-react/icons/chevron-down';
import MapPin from 'lucide-react/icons/map-pin';
import type { CallDetails } from '../../api/calls.ts';
import { detailsLoader } from './detailsLoader.ts';
import { ApiError } from '@lobby/call/http';
import { useConsoleStore } from '../../state/store.ts';
import { answerLabel, answerText, mapLink } from './answerText.ts';
import styles from './QueueEntryDetails.module.css';

/**
 * The call's details as the server knows them, through the queue's shared loader (detailsLoader.ts: asked
 * only once the row stays on screen, a bounded number at once, cancelled when the row is scrolled away);
 * a 404 right after the guest appears is retried once.
 */
function useCallDetails(callId: string): { details: CallDetails | null; failed: boolean } {
  const [details, setDetails] = useState<CallDetails | null>(() => detailsLoader.cached(callId) ?? null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (detailsLoader.cached(callId)) return;
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (again: boolean) =>
      detailsLoader
        .load(callId, abort.signal)
        .then(setDetails)
        .catch((error: unknown) => {
          if (abort.signal.aborted) return;
          if (again && error instanceof ApiError && error.status === 404) retry = setTimeout(() => void load(false), 1500);
          else setFailed(true);
        });
    void load(true);
    return () => {
      abort.abort();
      clearTimeout(retry);
    };
  }, [callId]);
  return { details, failed };
}

/**
 * One formatter per language: building an Intl.DateTimeFormat costs about a millisecond, and the queue
 * once built one per row on every render (seconds of a console's main thread at 300 guests).
 */
const clockFormats = new Map<string, Intl.DateTimeFormat>();
function clockFormat(language: string): Intl.DateTimeFormat {
  let format = clockFormats.get(language);
  if (!format) clockFormats.set(language, (format = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' })));
  return format;
}

/**
 * What the agent learns before answering: the welcome-form answers, the guest's position when
 * the company asks for it, and since when the guest waits. A disclosure under the queue entry.
 */
export const QueueEntryDetails = memo(function QueueEntryDetails({ callId, waitingSince }: { callId: string; waitingSince: number }) {
  const { t } = useTranslation();
  const language = useConsoleStore((s) => s.language);
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const { details, failed } = useCallDetails(callId);
  const answers = details?.form?.answers ?? [];
  const since = clockFormat(language).format(new Date(waitingSince));
  return (
    <div className={styles.details} data-testid="queue-details">
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setOpen((v) => !v)}
        data-testid="queue-details-toggle"
      >
        <ChevronDown size={14} aria-hidden="true" className={styles.chevron} data-open={open} />
        <span>{t('details.toggle')}</span>
        {answers.length ? <span className={styles.summary}>{t('details.answersCount', { count: answers.length })}</span> : null}
        {details?.location ? <MapPin size={13} aria-label={t('details.hasLocation')} /> : null}
      </button>
      <div id={regionId} hidden={!open} className={styles.body} data-testid="queue-details-body">
        {failed ? <p className={styles.muted}>{t('details.unavailable')}</p> : null}
        <dl className={styles.list}>
          <div className={styles.row}>
            <dt>{t('details.waitingSince')}</dt>
            <dd data-testid="queue-details-since">
              <time dateTime={new Date(waitingSince).toISOString()}>{since}</time>
            </dd>
          </div>
          {answers.map((a) => (
            <div className={styles.row} key={a.key} data-testid="queue-answer" data-key={a.key}>
              <dt>
                <bdi>{answerLabel(a, language)}</bdi>
              </dt>
              <dd>
                <bdi>{answerText(a, t)}</bdi>
              </dd>
            </div>
          ))}
          {details?.location ? (
            <div className={styles.row} data-testid="queue-location">
              <dt>{t('details.location')}</dt>
              <dd>
                <bdi dir="ltr">
                  {details.location.latitude}, {details.location.longitude}
                </bdi>{' '}
                <a href={mapLink(details.location)} target="_blank" rel="noopener noreferrer" className={styles.link}>
                  {t('details.map')}
                </a>
              </dd>
            </div>
          ) : null}
        </dl>
        {details && !answers.length && !details.location ? <p className={styles.muted}>{t('details.nothing')}</p> : null}
      </div>
    </div>
  );
});
