import { useTranslation } from '../../i18n/index.ts';
import AppWindow from 'lucide-react/icons/app-window';
import { useCallActions } from '../../state/callActions.ts';
import { useGuestStore } from '../../state/store.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { Button } from '@lobby/ui';

/**
 * Another tab of this browser holds the guest's session (one XMPP resource per guest): in a call, or just
 * open. This tab connects by itself when that tab closes; "Use this tab" asks it to hand over now.
 */
export function InCallScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const busy = useGuestStore((s) => s.otherTabBusy);
  const key = busy ? 'inCall' : 'inCall.idle';
  return (
    <MessageScreen
      screen="inCall"
      tone="info"
      icon={<AppWindow size={34} />}
      title={t(`${key}.title`)}
      body={<p data-other-tab={busy ? 'busy' : 'idle'}>{t(`${key}.body`)}</p>}
      actions={
        <Button block variant="secondary" onClick={() => void actions.takeOver()} data-testid="take-over-button">
          {t('inCall.takeOver')}
        </Button>
      }
    />
  );
}
