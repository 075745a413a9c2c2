import { useTranslation } from '../../i18n/index.ts';
import MapPinOff from 'lucide-react/icons/map-pin-off';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useState } from 'react';
import { useRecheck } from '../base/useRecheck.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import { Button } from '@lobby/ui';

/** The location check found the guest outside the company's service area. */
export function OutOfZoneScreen() {
  const { t } = useTranslation();
  const recheck = useRecheck();
  const [checking, setChecking] = useState(false);
  const message = useCompanyMessage('outOfZoneMsg');
  return (
    <MessageScreen
      screen="outofzone"
      tone="warning"
      icon={<MapPinOff size={34} />}
      title={t('outofzone.title')}
      body={
        <>
          <p dir="auto">{message}</p>
          <p>{t('outofzone.hint')}</p>
        </>
      }
      actions={
        <Button block icon={<RotateCcw size={20} />} disabled={checking} onClick={() => {
            setChecking(true);
            void recheck().finally(() => setChecking(false));
          }} data-testid="retry-location-button">
          {t('outofzone.retry')}
        </Button>
      }
    />
  );
}
