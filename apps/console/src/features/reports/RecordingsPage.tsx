import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Download from 'lucide-react/icons/download';
import Play from 'lucide-react/icons/play';
import Trash2 from 'lucide-react/icons/trash-2';
import type { ServiceFilter } from '@lobby/contracts';
import { deleteRecording, listRecordings } from '../../api/admin.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from '../admin/AdminLayout.tsx';
import { errorText, useAsync } from '../admin/useAsync.ts';
import styles from '../admin/Admin.module.css';
import { ServiceSwitch } from './ServiceSwitch.tsx';
import { AdminTable, PageHead } from '../admin/AdminParts.tsx';

/** The company's call recordings (supervisors and admins): filter by service, play one at a time, download, delete. */
export function RecordingsPage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const [service, setService] = useState<ServiceFilter>('all');
  const data = useAsync(() => listRecordings(service));
  const [playing, setPlaying] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = async (callId: string) => {
    if (!window.confirm(t('recordings.confirmDelete', { callId }))) return;
    try {
      setDeleteError(null);
      if (playing === callId) setPlaying(null);
      await deleteRecording(callId);
      data.reload();
    } catch (e) {
      setDeleteError(errorText(e));
    }
  };
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const mb = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  return (
    <AdminLayout screen="recordings">
      <PageHead title={t('recordings.title')} lead={t('recordings.lead')} error={data.error ?? deleteError}>
        <div className={styles.actions}>
          <ServiceSwitch
            value={service}
            onChange={(next) => {
              setService(next);
              data.reload();
            }}
          />
        </div>
      </PageHead>
      <section className={styles.card}>
        {data.data && data.data.length === 0 ? <p className={styles.empty}>{t('recordings.empty')}</p> : null}
        {data.data && data.data.length > 0 ? (
          <AdminTable columns={[t('recordings.when'), t('recordings.call'), t('service.label'), { label: t('recordings.size'), numeric: true }]} actions>
              {data.data.map((r) => (
                <tr key={r.callId} data-testid="recording-row" data-call-id={r.callId} data-service={r.serviceType}>
                  <td>{date.format(new Date(r.createdAt))}</td>
                  <td dir="ltr">
                    <code>{r.callId}</code>
                    {playing === r.callId ? (
                      <video src={r.url} controls autoPlay style={{ marginBlockStart: 10, maxInlineSize: 480, borderRadius: 12, background: '#000' }} />
                    ) : null}
                  </td>
                  <td>{t(`service.${r.serviceType}`)}</td>
                  <td className={styles.num}>{t('recordings.mb', { value: mb.format(r.size / 1_048_576) })}</td>
                  <td>
                    <span className={styles.rowActions}>
                      <button type="button" className={styles.smallButton} aria-pressed={playing === r.callId} onClick={() => setPlaying(playing === r.callId ? null : r.callId)}>
                        <Play size={16} aria-hidden="true" />
                        {t('recordings.play')}
                      </button>
                      <a className={styles.smallButton} href={r.url} download={`${r.callId}.mp4`}>
                        <Download size={16} aria-hidden="true" />
                        {t('recordings.download')}
                      </a>
                      {r.tracksUrl ? (
                        // every participant apart, not re-encoded (docs/protocol.md "Recording")
                        <a className={styles.smallButton} href={r.tracksUrl} download={`${r.callId}.tracks.mkv`} data-testid="recording-tracks">
                          <Download size={16} aria-hidden="true" />
                          {t('recordings.downloadTracks')}
                        </a>
                      ) : null}
                      <button
                        type="button"
                        className={`${styles.smallButton} ${styles.danger}`}
                        aria-label={t('recordings.deleteNamed', { callId: r.callId })}
                        onClick={() => void remove(r.callId)}
                        data-testid="recording-delete"
                      >
                        <Trash2 size={16} aria-hidden="true" />
                        {t('recordings.delete')}
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
          </AdminTable>
        ) : null}
      </section>
    </AdminLayout>
  );
}
