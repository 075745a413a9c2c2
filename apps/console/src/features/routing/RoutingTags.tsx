import { useTranslation } from 'react-i18next';
import Timer from 'lucide-react/icons/timer';
import type { QueueEntry } from '@lobby/call';
import { queueGuestName } from '../../state/guestName.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import { AppointmentBadge } from './AppointmentBadge.tsx';
import styles from './routing.module.css';

/**
 * How a waiting call reached this agent, under the guest's name in the queue: an appointment badge, and
 * for a round-robin offer the seconds left to answer and a Decline button (the call moves to the next agent).
 */
export function RoutingTags({ entry, now }: { entry: QueueEntry; now: number }) {
  const { t } = useTranslation('routing');
  const actions = useAgentActions();
  const offered = typeof entry.offerExpiresAt === 'number';
  if (!entry.appointmentID && !offered) return null;
  // `now` ticks once a second and may be older than the offer: never count from before it arrived
  const current = Math.max(now, Date.now());
  const seconds = offered ? Math.max(0, Math.ceil(((entry.offerExpiresAt ?? current) - current) / 1000)) : 0;
  return (
    <span className={styles.tags}>
      <AppointmentBadge appointmentID={entry.appointmentID} />
      {offered ? (
        <>
          <span className={styles.offer} data-testid="offer-countdown" data-seconds={seconds}>
            <Timer size={13} aria-hidden="true" />
            <span className="visually-hidden">{t('offerEndsIn', { seconds })}</span>
            <span aria-hidden="true">{t('offeredFor', { seconds })}</span>
          </span>
          <button
            type="button"
            className={styles.decline}
            onClick={() => void actions.decline?.(entry.callId)}
            aria-label={t('declineGuest', { name: queueGuestName(entry) })}
            data-testid="decline-button"
          >
            {t('decline')}
          </button>
        </>
      ) : null}
    </span>
  );
}
