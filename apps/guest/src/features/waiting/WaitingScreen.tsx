import { useTranslation } from '../../i18n/index.ts';
import { MediaNotice } from '../call/MediaNotice.tsx';
import X from 'lucide-react/icons/x';
import Headset from 'lucide-react/icons/headset';
import VideoOff from 'lucide-react/icons/video-off';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { useCompanyMessage } from '../base/hooks.ts';
import styles from './WaitingScreen.module.css';
import { WaitPlaceLine } from './WaitPlaceLine.tsx';
import { BookInstead } from '../booking/BookInstead.tsx';
import { waitPassesThreshold } from '../booking/bookingOffer.ts';
import { Button, VideoTile, useElapsed } from '@lobby/ui';

/** In the queue: waiting for an agent to answer. */
export function WaitingScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const company = useGuestStore((s) => s.company);
  const callType = useGuestStore((s) => s.callType);
  const localStream = useGuestStore((s) => s.localStream);
  const videoMuted = useGuestStore((s) => s.videoMuted);
  const waitingSince = useGuestStore((s) => s.waitingSince);
  // an appointment call waits for its own agent: it is never offered another time
  const offerBooking = useGuestStore(
    (s) => s.appointmentReference === null && waitPassesThreshold(s.company, s.waitPlace?.estimate ?? null),
  );
  const waitingMsg = useCompanyMessage('waitingMsg');
  const elapsed = useElapsed(waitingSince);
  const video = callType !== 'voice';

  return (
    <section className={styles.card} data-screen="waiting" aria-labelledby="waiting-title">
      <MediaNotice />
      <div className={styles.visual}>
        {company?.waitingImageUrl ? (
          <img className={styles.image} src={company.waitingImageUrl} alt="" />
        ) : (
          <div className={styles.pulse} aria-hidden="true">
            <span className={styles.ring} />
            <span className={styles.ring} />
            <span className={styles.ring} />
            <span className={styles.core}>
              {company?.logoImageUrl ? <img src={company.logoImageUrl} alt="" /> : <Headset size={38} />}
            </span>
          </div>
        )}
      </div>

      <div className={styles.text}>
        <h1 id="waiting-title" className={styles.title}>
          {t('waiting.title')}
        </h1>
        <p className={styles.message} dir="auto">
          {waitingMsg}
        </p>
        <p className={styles.timer}>
          <span>{t('waiting.elapsed')}</span>{' '}
          <time className={styles.time} role="timer" aria-live="off">
            {elapsed}
          </time>
        </p>
        <WaitPlaceLine />
      </div>

      {video ? (
        <VideoTile
          className={styles.selfView}
          stream={localStream}
          muted
          mirrored
          videoOff={videoMuted}
          label={t('waiting.selfView')}
          peer="local"
          data-testid="local-video"
          placeholder={<VideoOff size={28} aria-hidden="true" />}
        />
      ) : (
        <p className={styles.voiceNote}>{t('waiting.voiceNote')}</p>
      )}

      {offerBooking ? <BookInstead reason="waiting" /> : null}

      <Button
        variant="secondary"
        block
        icon={<X size={20} />}
        onClick={() => void actions.cancel()}
        data-testid="cancel-button"
      >
        {t('waiting.cancel')}
      </Button>
    </section>
  );
}
