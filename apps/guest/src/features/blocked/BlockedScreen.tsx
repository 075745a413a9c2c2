import { useTranslation } from '../../i18n/index.ts';
import ShieldBan from 'lucide-react/icons/shield-ban';
import { MessageScreen } from '../base/MessageScreen.tsx';

/** The call report said this guest is blocked. No way forward from here, on purpose. */
export function BlockedScreen() {
  const { t } = useTranslation();
  return <MessageScreen screen="blocked" tone="danger" icon={<ShieldBan size={34} />} title={t('blocked.title')} body={<p>{t('blocked.body')}</p>} />;
}
