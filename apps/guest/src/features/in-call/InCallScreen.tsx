import { useTranslation } from 'react-i18next';
import AppWindow from 'lucide-react/icons/app-window';
import { useCallActions } from '../../app/callActions.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { Button } from '../base/Button.tsx';

/** Another tab of this browser holds the call (one XMPP resource per guest). */
export function InCallScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  return (
    <MessageScreen
      screen="inCall"
      tone="info"
      icon={<AppWindow size={34} />}
      title={t('inCall.title')}
      body={<p>{t('inCall.body')}</p>}
      actions={
        <Button block variant="secondary" onClick={() => void actions.takeOver()} data-testid="take-over-button">
          {t('inCall.takeOver')}
        </Button>
      }
    />
  );
}
