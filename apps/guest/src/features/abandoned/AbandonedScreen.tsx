import { useTranslation } from '../../i18n/index.ts';
import PhoneMissed from 'lucide-react/icons/phone-missed';
import PhoneOff from 'lucide-react/icons/phone-off';
import WifiOff from 'lucide-react/icons/wifi-off';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import CalendarX from 'lucide-react/icons/calendar-x';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { useRecheck } from '../base/useRecheck.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import { Button, buttonStyles } from '@lobby/ui';
import { failureBodyKey } from './failureMessage.ts';

/** The call is over without (further) conversation: ended, nobody answered, cancelled, dropped. */
export function AbandonedScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const recheck = useRecheck();
  const reason = useGuestStore((s) => s.endReason) ?? 'ended';
  const thanks = useCompanyMessage('thanksMsg');
  const failure = useGuestStore((s) => s.error?.message);
  const content = {
    ended: { icon: <PhoneOff size={34} />, title: t('abandoned.endedTitle'), body: thanks, tone: 'neutral' },
    noAnswer: { icon: <PhoneMissed size={34} />, title: t('abandoned.noAnswerTitle'), body: t('abandoned.noAnswerBody'), tone: 'warning' },
    cancelled: { icon: <PhoneOff size={34} />, title: t('abandoned.cancelledTitle'), body: t('abandoned.cancelledBody'), tone: 'neutral' },
    failed: { icon: <WifiOff size={34} />, title: t('abandoned.failedTitle'), body: t(failureBodyKey(failure)), tone: 'danger' },
    unknownAppointment: {
      icon: <CalendarX size={34} />,
      title: t('abandoned.unknownAppointmentTitle'),
      body: t('abandoned.unknownAppointmentBody'),
      tone: 'warning',
    },
  } as const;
  const { icon, title, body, tone } = content[reason];
  return (
    <MessageScreen
      screen="abandoned"
      tone={tone}
      icon={icon}
      title={title}
      body={<p data-end-reason={reason} data-failure={reason === 'failed' ? (failure ?? '') : undefined}>{body}</p>}
      actions={
        reason === 'unknownAppointment' ? (
          // the call page without the link's reference: the company's usual queues
          <a href="/" className={`${buttonStyles.button} ${buttonStyles.primary} ${buttonStyles.block}`} data-testid="call-without-appointment">
            {t('abandoned.callWithoutAppointment')}
          </a>
        ) : (
          <Button block size="lg" icon={<RotateCcw size={22} />} onClick={() => void Promise.resolve(actions.callAgain()).then(recheck)} data-testid="call-again-button">
            {t('abandoned.callAgain')}
          </Button>
        )
      }
    />
  );
}
