import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Download from 'lucide-react/icons/download';
import Play from 'lucide-react/icons/play';
import { listRecordings } from '../../api/admin.ts';
import { useConsoleStore } from '../../app/store.ts';
import { AdminLayout } from '../admin/AdminLayout.tsx';
import { useAsync } from '../admin/useAsync.ts';
import styles from '../admin/Admin.module.css';

/** The company's call recordings: play one at a time, download. */
export function RecordingsPage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const data = useAsync(listRecordings);
  const [playing, setPlaying] = useState<string | null>(null);
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const mb = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  return (
    <AdminLayout screen="recordings">
      <div className={styles.headline}>
        <div>
          <h1>{t('recordings.title')}</h1>
          <p className={styles.lead}>{t('recordings.lead')}</p>
        </div>
      </div>
      {data.error ? (
        <p className={styles.error} role="alert">
          {data.error}
        </p>
      ) : null}
      <section className={styles.card}>
        {data.data && data.data.length === 0 ? <p className={styles.empty}>{t('recordings.empty')}</p> : null}
        {data.data && data.data.length > 0 ? (
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{t('recordings.when')}</th>
                <th scope="col">{t('recordings.call')}</th>
                <th scope="col" className={styles.num}>
                  {t('recordings.size')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((r) => (
                <tr key={r.callId} data-testid="recording-row">
                  <td>{date.format(new Date(r.createdAt))}</td>
                  <td dir="ltr">
                    <code>{r.callId}</code>
                    {playing === r.callId ? (
                      <video src={r.url} controls autoPlay style={{ marginBlockStart: 10, maxInlineSize: 480, borderRadius: 12, background: '#000' }} />
                    ) : null}
                  </td>
                  <td className={styles.num}>{t('recordings.mb', { value: mb.format(r.size / 1_048_576) })}</td>
                  <td>
                    <span className={styles.rowActions}>
                      <button type="button" className={styles.smallButton} aria-pressed={playing === r.callId} onClick={() => setPlaying(playing === r.callId ? null : r.callId)}>
                        <Play size={16} aria-hidden="true" />
                        {t('recordings.play')}
                      </button>
                      <a className={styles.smallButton} href={r.url} download={`${r.callId}.mkv`}>
                        <Download size={16} aria-hidden="true" />
                        {t('recordings.download')}
                      </a>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </AdminLayout>
  );
}
