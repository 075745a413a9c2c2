import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import Video from 'lucide-react/icons/video';
import Phone from 'lucide-react/icons/phone';
import PhoneIncoming from 'lucide-react/icons/phone-incoming';
import Inbox from 'lucide-react/icons/inbox';
import Coffee from 'lucide-react/icons/coffee';
import type { QueueEntry } from '@lobby/call';
import { useConsoleStore } from '../../state/store.ts';
import { queueGuestName } from '../../state/guestName.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import { RoutingTags } from '../routing/RoutingTags.tsx';
import { IncomingTransfers } from '../routing/IncomingTransfers.tsx';
import { QueueEntryDetails } from './QueueEntryDetails.tsx';
import styles from './QueuePanel.module.css';
import { Avatar, formatDuration, useNow } from '@lobby/ui';
import { VirtualList } from './VirtualList.tsx';

function waitLevel(ms: number): 'ok' | 'long' | 'veryLong' {
  if (ms >= 5 * 60_000) return 'veryLong';
  if (ms >= 2 * 60_000) return 'long';
  return 'ok';
}

/**
 * A row: its place in the list (aria-posinset / -setsize) changes with every arrival, so the row's body
 * is memoised apart and re-renders only when its guest changes or the wait ticks.
 */
function QueueItem({ entry, now, busy, position, size }: { entry: QueueEntry; now: number; busy: boolean; position: number; size: number }) {
  return (
    <li
      className={styles.item}
      data-testid="queue-item"
      data-vkey={entry.callId}
      aria-posinset={position}
      aria-setsize={size}
      data-call-id={entry.callId}
      data-kind={entry.callType}
      data-presence={entry.statusText}
      data-user-type={entry.lobby?.userType ?? ''}
      data-appointment-id={entry.appointmentID}
      data-navigating={entry.navigating ? 'true' : undefined}
    >
      <QueueItemBody entry={entry} now={now} busy={busy} />
    </li>
  );
}

const QueueItemBody = memo(function QueueItemBody({ entry, now, busy }: { entry: QueueEntry; now: number; busy: boolean }) {
  const { t } = useTranslation();
  const actions = useAgentActions();
  const waited = now - entry.since;
  const time = formatDuration(waited);
  const guestName = queueGuestName(entry);
  return (
    <>
      <Avatar name={guestName} size={40} />
      <div className={styles.info}>
        <span className={styles.name}>
          <bdi>{guestName}</bdi>
        </span>
        <span className={styles.meta}>
          <span className={styles.kind} title={t(entry.callType === 'video' ? 'queue.video' : 'queue.voice')}>
            {entry.callType === 'video' ? <Video size={15} aria-hidden="true" /> : <Phone size={15} aria-hidden="true" />}
            <span className="visually-hidden">{t(entry.callType === 'video' ? 'queue.video' : 'queue.voice')}</span>
          </span>
          <span className={styles.assignment}>{entry.assignmentName ?? ''}</span>
        </span>
        <RoutingTags entry={entry} now={now} />
        {entry.navigating && (
          <span className={styles.navigating} data-testid="queue-navigating">
            {t('queue.navigating')}
          </span>
        )}
      </div>
      <span className={styles.wait} data-level={waitLevel(waited)} data-testid="queue-wait">
        <span className="visually-hidden">{t('queue.waited', { time })}</span>
        <time aria-hidden="true">{time}</time>
      </span>
      <button
        type="button"
        className={styles.answer}
        onClick={() => void actions.answer(entry.callId)}
        disabled={busy}
        title={busy ? t('queue.busy') : undefined}
        aria-label={t('queue.answerGuest', { name: guestName })}
        data-testid="answer-button"
      >
        <PhoneIncoming size={16} aria-hidden="true" />
        <span>{t('queue.answer')}</span>
      </button>
      <QueueEntryDetails callId={entry.callId} waitingSince={entry.since} />
    </>
  );
});

/** a row's height before it is measured (avatar, name, tags, the details toggle) */
const ROW_ESTIMATE_PX = 110;
/** .list's gap in QueuePanel.module.css */
const ROW_GAP_PX = 4;
const callIdOf = (entry: QueueEntry) => entry.callId;

/** The longest wait of the queue: what a company's service level is judged by, at a glance. */
function LongestWait({ since, now }: { since: number; now: number }) {
  const { t } = useTranslation();
  const waited = now - since;
  return (
    <p className={styles.longest} data-testid="queue-longest" data-level={waitLevel(waited)}>
      {t('queue.longest')} <time className={styles.longestTime}>{formatDuration(waited)}</time>
    </p>
  );
}

/** The waiting guests, longest wait first, with a ticking wait time and an Answer button each. */
export function QueuePanel() {
  const { t } = useTranslation();
  const queue = useConsoleStore((s) => s.queue);
  const busy = useConsoleStore((s) => s.activeCall !== null);
  const away = useConsoleStore((s) => s.availability === 'away');
  const now = useNow();
  const live = useConsoleStore((s) => s.live);
  const mediaReady = useConsoleStore((s) => s.mediaReady);
  return (
    <aside
      className={styles.panel}
      aria-labelledby="queue-title"
      data-testid="queue-panel"
      data-live={live}
      data-media-ready={mediaReady}
    >
      <div className={styles.head}>
        <h2 id="queue-title" className={styles.title}>
          {t('queue.title')}
        </h2>
        <span className={styles.count} aria-live="polite" data-testid="queue-count">
          <span aria-hidden="true">{queue.length}</span>
          <span className="visually-hidden">{t('queue.count', { count: queue.length })}</span>
        </span>
      </div>
      {queue.length > 0 ? <LongestWait since={Math.min(...queue.map((e) => e.since))} now={now} /> : null}
      <IncomingTransfers />
      {away ? (
        <p className={styles.away}>
          <Coffee size={16} aria-hidden="true" />
          {t('queue.awayNote')}
        </p>
      ) : null}
      {queue.length === 0 ? (
        <div className={styles.empty} data-testid="queue-empty">
          <span className={styles.emptyIcon} aria-hidden="true">
            <Inbox size={28} />
          </span>
          <p className={styles.emptyTitle}>{t('queue.emptyTitle')}</p>
          <p className={styles.emptyBody}>{t('queue.emptyBody')}</p>
        </div>
      ) : (
        <VirtualList items={queue} itemKey={callIdOf} estimate={ROW_ESTIMATE_PX} gap={ROW_GAP_PX} className={styles.view} listClassName={styles.list}>
          {(entry, index) => (
            <QueueItem key={entry.callId} entry={entry} now={now} busy={busy} position={index + 1} size={queue.length} />
          )}
        </VirtualList>
      )}
      {busy && queue.length > 0 ? <p className={styles.busy}>{t('queue.busy')}</p> : null}
    </aside>
  );
}
