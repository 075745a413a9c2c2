import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleStore } from '../../state/store.ts';
import { Header } from '../workspace/Header.tsx';
import { useLiveWallboard } from './liveWallboard.ts';
import styles from './Wallboard.module.css';

/** mm:ss (h:mm:ss past an hour) of a wait that began at `since`. */
function waitText(since: string | null, now: number): string {
  if (!since) return '–';
  const s = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h > 0 ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/** Large figures with their names; `data-value` carries the figure for tests and readers of the DOM alike. */
function Tiles({ tiles }: { tiles: Array<{ key: string; value: string; label: string }> }) {
  return (
    <dl className={styles.tiles}>
      {tiles.map(({ key, value, label }) => (
        <div key={key} className={styles.tile} data-testid={`wallboard-${key}`} data-value={value}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The supervisors' wall board (docs/api.md "Wall board"): for a large screen in the room, readable from
 * afar; live through the console's event stream. Nothing on it needs a pointer.
 */
export function WallboardPage() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const language = useConsoleStore((s) => s.language);
  const { board, failed } = useLiveWallboard();
  const [now, setNow] = useState(() => Date.now());
  // the longest waits count on between the server's answers
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const num = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const tiles = board
    ? ([
        ['answered', num.format(board.today.answered)],
        ['abandoned', num.format(board.today.abandoned)],
        ['booked', num.format(board.today.booked)],
        ['serviceLevel', board.today.serviceLevel === null ? '–' : percent.format(board.today.serviceLevel)],
      ] as const)
    : [];
  const agents = board ? ([['available', board.agents.available], ['inCall', board.agents.inCall], ['away', board.agents.away]] as const) : [];

  return (
    <div className={styles.page} data-screen="wallboard">
      <a href="#wallboard-main" className="skip-link">
        {tc('app.skipToContent')}
      </a>
      <Header />
      <main id="wallboard-main" className={styles.main} tabIndex={-1} aria-labelledby="wallboard-title">
        <h1 id="wallboard-title" className={styles.title}>
          {t('wallboard.title')}
        </h1>
        {failed ? (
          <p role="alert" className={styles.error}>
            {t('wallboard.failed')}
          </p>
        ) : null}
        {board ? (
          <>
            <section aria-labelledby="wb-today" className={styles.section}>
              <h2 id="wb-today" className={styles.heading}>
                {t('wallboard.today')}
              </h2>
              <Tiles tiles={tiles.map(([key, value]) => ({ key, value, label: key === 'serviceLevel' ? t('wallboard.serviceLevel', { seconds: board.today.serviceLevelSeconds }) : t(`wallboard.${key}`) }))} />
            </section>
            <section aria-labelledby="wb-queues" className={styles.section}>
              <h2 id="wb-queues" className={styles.heading}>
                {t('wallboard.queues')}
              </h2>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">{t('wallboard.assignment')}</th>
                    <th scope="col" className={styles.num}>
                      {t('wallboard.waiting')}
                    </th>
                    <th scope="col" className={styles.num}>
                      {t('wallboard.longestWait')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {board.queues.map((q) => (
                    <tr key={q.assignmentId ?? 'appointments'} data-testid="wallboard-queue" data-waiting={q.waiting} className={q.waiting > 0 ? styles.busy : undefined}>
                      <th scope="row" dir="auto">
                        {q.assignmentId === null ? t('wallboard.appointments') : q.name}
                      </th>
                      <td className={styles.num}>{num.format(q.waiting)}</td>
                      <td className={styles.num}>
                        <span dir="ltr">{waitText(q.longestWaitSince, now)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section aria-labelledby="wb-agents" className={styles.section}>
              <h2 id="wb-agents" className={styles.heading}>
                {t('wallboard.agents')}
              </h2>
              <Tiles tiles={agents.map(([key, value]) => ({ key: `agents-${key}`, value: num.format(value), label: t(`wallboard.${key}`) }))} />
            </section>
          </>
        ) : failed ? null : (
          <p role="status">{t('wallboard.loading')}</p>
        )}
      </main>
    </div>
  );
}
