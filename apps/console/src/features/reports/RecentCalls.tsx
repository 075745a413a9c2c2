import { useTranslation } from 'react-i18next';
import type { ServiceFilter } from '@lobby/contracts';
import { listCalls } from '../../api/calls.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAsync } from '../admin/useAsync.ts';
import styles from '../admin/Admin.module.css';
import { AdminTable } from '../admin/AdminParts.tsx';
import { GuestCell, RatingCell, TalkTime } from './callCells.tsx';

/** The company's latest calls of a service with the guests' ratings and the agents' notes after them (GET /api/console/calls). */
export function RecentCalls({ service = 'all' }: { service?: ServiceFilter }) {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  // (the page keys this component by service: a new service is a new list)
  const calls = useAsync(() => listCalls(50, service));
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className={styles.card} aria-labelledby="recent-calls-h" data-testid="recent-calls" data-service={service}>
      <h2 id="recent-calls-h">{t('recentCalls.title')}</h2>
      {calls.error ? (
        <p className={styles.error} role="alert">
          {calls.error}
        </p>
      ) : null}
      {calls.data && calls.data.length === 0 ? <p className={styles.empty}>{t('recentCalls.empty')}</p> : null}
      {calls.data && calls.data.length > 0 ? (
        <AdminTable columns={[t('recentCalls.when'), t('recentCalls.guest'), t('recentCalls.assignment'), t('recentCalls.answered'), t('recentCalls.talk'), t('recentCalls.rating'), t('recentCalls.note')]}>
            {calls.data.map((c) => (
              <tr key={c.callId} data-testid="recent-call" data-call-id={c.callId}>
                <th scope="row">{when.format(new Date(c.createdAt))}</th>
                <td data-testid="recent-call-guest">
                  <GuestCell username={c.guestUsername} name={c.guestName} />
                </td>
                <td>{c.assignmentName ?? '–'}</td>
                <td>{c.answered ? t('recentCalls.yes') : t('recentCalls.no')}</td>
                <td data-testid="recent-call-talk" data-parts={c.parts}>
                  <TalkTime seconds={c.talkSeconds} />
                </td>
                <td data-testid="recent-call-rating">
                  <RatingCell rating={c.rating} />
                </td>
                <td data-testid="recent-call-note">
                  {c.note ? (
                    <>
                      <bdi style={{ whiteSpace: 'pre-wrap' }}>{c.note.text}</bdi>
                      {c.note.by ? <div className={styles.hint}>{t('recentCalls.by', { name: c.note.by })}</div> : null}
                    </>
                  ) : (
                    '–'
                  )}
                </td>
              </tr>
            ))}
        </AdminTable>
      ) : null}
    </section>
  );
}
