import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Download from 'lucide-react/icons/download';
import Play from 'lucide-react/icons/play';
import Trash2 from 'lucide-react/icons/trash-2';
import type { ServiceFilter } from '@lobby/contracts';
import { deleteRecording, listRecordings, type Recording } from '../../api/admin.ts';
import { guestDisplayName } from '../../state/guestName.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from '../admin/AdminLayout.tsx';
import { errorText, useAsync } from '../admin/useAsync.ts';
import styles from '../admin/Admin.module.css';
import { ServiceSwitch } from './ServiceSwitch.tsx';
import { AdminTable, PageHead } from '../admin/AdminParts.tsx';
import { GuestCell, RatingCell, TalkTime } from './callCells.tsx';

/** The company's call recordings (supervisors and admins): filter by service, play one at a time, download, delete. */
export function RecordingsPage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const [service, setService] = useState<ServiceFilter>('all');
  const data = useAsync(() => listRecordings(service));
  const [playing, setPlaying] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const mb = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  /** the guest as the queue named it and when: how a person tells one recording from another */
  const named = (r: Recording) => ({ name: r.guestUsername === null ? r.callId : guestDisplayName(r.guestUsername, r.guestName), when: date.format(new Date(r.createdAt)) });
  const remove = async (r: Recording) => {
    const callId = r.callId;
    if (!window.confirm(t('recordings.confirmDelete', named(r)))) return;
    try {
      setDeleteError(null);
      if (playing === callId) setPlaying(null);
      await deleteRecording(callId);
      data.reload();
    } catch (e) {
      setDeleteError(errorText(e));
    }
  };
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
          <AdminTable
            columns={[
              t('recordings.when'),
              t('recordings.guest'),
              t('recordings.agent'),
              t('recordings.duration'),
              t('recordings.rating'),
              t('service.label'),
              { label: t('recordings.size'), numeric: true },
            ]}
            actions
          >
              {data.data.map((r) => (
                <tr key={r.callId} data-testid="recording-row" data-call-id={r.callId} data-service={r.serviceType}>
                  <td>{date.format(new Date(r.createdAt))}</td>
                  <td data-testid="recording-guest">
                    <GuestCell username={r.guestUsername} name={r.guestName} />
                    {playing === r.callId ? (
                      <video
                        src={r.url}
                        controls
                        autoPlay
                        aria-label={t('recordings.playNamed', named(r))}
                        data-testid="recording-player"
                        style={{ display: 'block', marginBlockStart: 10, maxInlineSize: 480, borderRadius: 12, background: '#000' }}
                      />
                    ) : null}
                  </td>
                  <td data-testid="recording-agent">
                    <bdi>{r.agentName ?? '–'}</bdi>
                  </td>
                  <td data-testid="recording-duration">
                    <TalkTime seconds={r.talkSeconds} />
                  </td>
                  <td data-testid="recording-rating">
                    <RatingCell rating={r.rating} />
                  </td>
                  <td>{t(`service.${r.serviceType}`)}</td>
                  <td className={styles.num}>{t('recordings.mb', { value: mb.format(r.size / 1_048_576) })}</td>
                  <td>
                    <span className={`${styles.rowActions} ${styles.rowActionsWrap}`}>
                      <button
                        type="button"
                        className={styles.smallButton}
                        aria-pressed={playing === r.callId}
                        aria-label={t('recordings.playNamed', named(r))}
                        onClick={() => setPlaying(playing === r.callId ? null : r.callId)}
                        data-testid="recording-play"
                      >
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
                        aria-label={t('recordings.deleteNamed', named(r))}
                        onClick={() => void remove(r)}
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
