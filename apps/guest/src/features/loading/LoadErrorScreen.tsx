import { useTranslation } from '../../i18n/index.ts';
import WifiOff from 'lucide-react/icons/wifi-off';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { Button } from '@lobby/ui';

/** The company details could not be loaded. */
export function LoadErrorScreen({ onRetry }: { onRetry?: (() => void) | undefined }) {
  const { t } = useTranslation();
  return (
    <MessageScreen
      screen="error"
      tone="danger"
      icon={<WifiOff size={34} />}
      title={t('loadError.title')}
      body={<p>{t('loadError.body')}</p>}
      actions={
        onRetry ? (
          <Button block icon={<RefreshCw size={20} />} onClick={onRetry} data-testid="retry-button">
            {t('loadError.retry')}
          </Button>
        ) : null
      }
    />
  );
}
