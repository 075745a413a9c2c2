import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Download from 'lucide-react/icons/download';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { getReports, reportsCsvUrl } from '../../api/admin.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from '../admin/AdminLayout.tsx';
import { useAsync } from '../admin/useAsync.ts';
import styles from '../admin/Admin.module.css';
import { Legend, Lines, StackedBars } from './charts.tsx';
import { ServiceSwitch } from './ServiceSwitch.tsx';
import type { ServiceFilter } from '@lobby/contracts';
import { RecentCalls } from './RecentCalls.tsx';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Calls per day, answered and abandoned, wait and talk time, by service; charts, a table and CSV export. */
export function ReportsPage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const [to, setTo] = useState(() => iso(Date.now()));
  const [from, setFrom] = useState(() => iso(Date.now() - 13 * DAY_MS));
  const [service, setService] = useState<ServiceFilter>('all');
  const report = useAsync(() => getReports(from, to, service));
  const r = report.data;
  const labels = r ? r.days.map((d) => new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${d.day}T00:00:00Z`))) : [];
  const num = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const seconds = (s: number) => t('reports.seconds', { value: num.format(s) });
  const bars = r
    ? [
        { label: t('reports.answered'), color: 'var(--success)', values: r.days.map((d) => d.answered) },
        { label: t('reports.abandoned'), color: 'var(--danger)', values: r.days.map((d) => d.abandoned) },
        { label: t('reports.booked'), color: 'var(--lobby-accent)', values: r.days.map((d) => d.booked) },
        { label: t('reports.other'), color: '#94a3b8', values: r.days.map((d) => d.calls - d.answered - d.abandoned - d.booked) },
      ]
    : [];
  const times = r
    ? [
        { label: t('reports.avgWait'), color: 'var(--warning)', values: r.days.map((d) => d.avgWaitSeconds) },
        { label: t('reports.avgTalk'), color: 'var(--lobby-accent)', values: r.days.map((d) => d.avgTalkSeconds) },
      ]
    : [];
  return (
    <AdminLayout screen="reports">
      <div className={styles.headline}>
        <div>
          <h1>{t('reports.title')}</h1>
          <p className={styles.lead}>{t('reports.lead')}</p>
        </div>
        <form
          className={styles.actions}
          onSubmit={(e) => {
            e.preventDefault();
            report.reload();
          }}
        >
          <ServiceSwitch
            value={service}
            onChange={(next) => {
              setService(next);
              report.reload();
            }}
          />
          <label className={styles.field}>
            <span className={styles.label}>{t('reports.from')}</span>
            <input className={styles.input} type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} data-testid="reports-from" />
          </label>
          <label className={styles.field}>
            <span className={styles.label}>{t('reports.to')}</span>
            <input className={styles.input} type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} data-testid="reports-to" />
          </label>
          <button type="submit" className={styles.smallButton} style={{ alignSelf: 'end', minBlockSize: 40 }} data-testid="reports-refresh">
            <RefreshCw size={16} aria-hidden="true" />
            {t('reports.refresh')}
          </button>
          <a className={styles.smallButton} style={{ alignSelf: 'end', minBlockSize: 40 }} href={reportsCsvUrl(from, to, service)} download data-testid="reports-csv">
            <Download size={16} aria-hidden="true" />
            {t('reports.csv')}
          </a>
        </form>
      </div>
      {report.error ? (
        <p className={styles.error} role="alert">
          {report.error}
        </p>
      ) : null}
      {r ? (
        <>
          <section className={styles.grid2} aria-label={t('reports.totals')} style={{ marginBlockEnd: 16 }} data-testid="reports-totals" data-service={r.service}>
            {(
              [
                ['calls', num.format(r.totals.calls)],
                ['answered', num.format(r.totals.answered)],
                ['abandoned', num.format(r.totals.abandoned)],
                ['booked', num.format(r.totals.booked)],
                ['avgWait', seconds(r.totals.avgWaitSeconds)],
                ['avgTalk', seconds(r.totals.avgTalkSeconds)],
                ['avgRating', r.totals.ratings ? t('reports.ratingValue', { value: num.format(r.totals.avgRating), count: r.totals.ratings }) : '–'],
              ] as const
            ).map(([k, v]) => (
              <div key={k} className={styles.card} style={{ marginBlockEnd: 0 }} data-testid={`total-${k}`}>
                <div className={styles.hint}>{t(`reports.${k}`)}</div>
                <div style={{ fontSize: '1.625rem', fontWeight: 700 }} data-testid={`total-${k}-value`}>
                  {v}
                </div>
              </div>
            ))}
          </section>
          <section className={styles.card} aria-labelledby="calls-chart-h">
            <h2 id="calls-chart-h">{t('reports.callsPerDay')}</h2>
            <Legend series={bars} />
            <StackedBars title={t('reports.callsPerDay')} labels={labels} series={bars} />
          </section>
          <section className={styles.card} aria-labelledby="times-chart-h">
            <h2 id="times-chart-h">{t('reports.times')}</h2>
            <Legend series={times} />
            <Lines title={t('reports.times')} labels={labels} series={times} unit="s" />
          </section>
          <section className={styles.card} aria-labelledby="table-h">
            <h2 id="table-h">{t('reports.table')}</h2>
            <table className={styles.table} data-testid="reports-table">
              <thead>
                <tr>
                  <th scope="col">{t('reports.day')}</th>
                  <th scope="col" className={styles.num}>
                    {t('reports.calls')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.answered')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.abandoned')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.booked')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.avgWait')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.avgTalk')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('reports.avgRating')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...r.days].reverse().map((d, i) => (
                  <tr key={d.day} data-day={d.day}>
                    <th scope="row">{labels[r.days.length - 1 - i]}</th>
                    <td className={styles.num}>{num.format(d.calls)}</td>
                    <td className={styles.num}>{num.format(d.answered)}</td>
                    <td className={styles.num}>{num.format(d.abandoned)}</td>
                    <td className={styles.num}>{num.format(d.booked)}</td>
                    <td className={styles.num}>{seconds(d.avgWaitSeconds)}</td>
                    <td className={styles.num}>{seconds(d.avgTalkSeconds)}</td>
                    <td className={styles.num}>{d.ratings ? t('reports.ratingValue', { value: num.format(d.avgRating), count: d.ratings }) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
      <RecentCalls key={service} service={service} />
    </AdminLayout>
  );
}
