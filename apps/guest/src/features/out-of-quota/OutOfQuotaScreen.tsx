import { useTranslation } from '../../i18n/index.ts';
import Hourglass from 'lucide-react/icons/hourglass';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useCallActions } from '../../state/callActions.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { Button } from '@lobby/ui';

/** The call report said the company is out of quota. */
export function OutOfQuotaScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  return (
    <MessageScreen
      screen="outOfQuota"
      tone="warning"
      icon={<Hourglass size={34} />}
      title={t('outOfQuota.title')}
      body={<p>{t('outOfQuota.body')}</p>}
      actions={
        <Button block variant="secondary" icon={<RotateCcw size={20} />} onClick={() => void actions.callAgain()} data-testid="call-again-button">
          {t('outOfQuota.retry')}
        </Button>
      }
    />
  );
}
